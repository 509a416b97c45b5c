// Preloaded (`--import`) into every benchmark child. Should the benchmark die without stopping its children
// (SIGKILL, crash), its end of their stdin pipe closes; each child then stops itself the graceful way instead of
// lingering on a port. A paused-until-EOF pipe costs the measured process nothing.
process.stdin.on('end', () => process.kill(process.pid, 'SIGTERM')).resume()
