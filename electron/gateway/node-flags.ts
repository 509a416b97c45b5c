/**
 * The old generation grows by 30% past what a full collection left alive, not by V8's own factor (up to 4x when
 * collections are fast, as they are for a gateway whose live heap is ~20 MB): ~25 MB less resident after load, at no
 * measured cost in CPU or latency. A V8 flag that also takes effect when set at run time (the desktop shell does).
 */
export const HEAP_GROWING_FLAG = '--heap-growing-percent=30'

/**
 * Node flags the headless gateway runs with (`npm run gateway` spells them out, a test keeps the two equal; `npm
 * start`, the bench and the spawned tests use the constant). Each keeps memory that a gateway does not need:
 * - 4 MB semispaces instead of V8's 16: ~24 MB less resident at the end of a load (113 against 137 MB at 64
 *   connections). It is a trade: scavenged three times as often, a request costs ~8-10% more CPU under load (nine
 *   alternating rounds each, at 16 and at 64 connections). V8's memory reducer gives the larger young generation back by
 *   itself ~30 s after a load ends;
 * - one V8 helper thread instead of four: each kept a malloc arena of its own (~8 MB less resident after load);
 * - HEAP_GROWING_FLAG.
 */
export const GATEWAY_NODE_FLAGS = ['--max-semi-space-size=4', '--v8-pool-size=1', HEAP_GROWING_FLAG]
