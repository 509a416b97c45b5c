/**
 * The old generation grows by 30% past what a full collection left alive, not by V8's own factor (up to 4x when
 * collections are fast, as they are for a gateway whose live heap is ~20 MB): ~25 MB less resident after load, at no
 * measured cost in CPU or latency. A V8 flag that also takes effect when set at run time (the desktop shell does).
 */
export const HEAP_GROWING_FLAG = '--heap-growing-percent=30'

/**
 * Node flags the headless gateway runs with (`npm run gateway` spells them out, a test keeps the two equal; `npm
 * start`, the bench and the spawned tests use the constant). Each keeps memory that a gateway does not need:
 * - a request's garbage dies young, so 4 MB semispaces instead of 16 are scavenged as cheaply and keep ~20 MB less
 *   resident under load;
 * - one V8 helper thread instead of four: each kept a malloc arena of its own (~8 MB less resident after load);
 * - HEAP_GROWING_FLAG.
 */
export const GATEWAY_NODE_FLAGS = ['--max-semi-space-size=4', '--v8-pool-size=1', HEAP_GROWING_FLAG]
