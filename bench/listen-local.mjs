// Preloaded (`--import`) into a peer gateway started through its own bin (Portkey's start-server.js), which takes a
// port but no host, so it would listen on every interface, and prints the port it was given, not the one it got. A
// server told to listen on a port without a host listens on 127.0.0.1 instead, and the first one to listen prints
// `listening on URL` (its real address and port, so `--port=0` works) for the benchmark to read. Nothing else about
// the process changes.
import net from 'node:net'

const listen = net.Server.prototype.listen
let announced = false

net.Server.prototype.listen = function (...args) {
  // listen(port[, host][, backlog][, callback]): a port with no host (or an undefined one) gets 127.0.0.1.
  if (typeof args[0] === 'number' && typeof args[1] !== 'string') args.splice(1, args[1] === undefined ? 1 : 0, '127.0.0.1')
  this.once('listening', () => {
    const address = this.address()
    if (announced || address === null || typeof address === 'string') return
    announced = true
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
    process.stdout.write(`\nlistening on http://${host}:${address.port}\n`)
  })
  return listen.apply(this, args)
}
