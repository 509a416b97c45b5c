/**
 * A log pipe whose reader is gone (the program that started the gateway, or the terminal, has ended) fails every
 * write with EPIPE. The failure has nowhere to be told: reported as an uncaught exception, its report fails the same
 * way, again and again, and starves the event loop (a process spinning on one core that no longer stops on SIGTERM).
 * So the gateway's process goes on without its log. Called once at start by each process that hosts the gateway.
 */
export function outliveLogPipes(): void {
  for (const log of [process.stdout, process.stderr]) log.on('error', () => {})
}
