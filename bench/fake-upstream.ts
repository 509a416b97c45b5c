// The tests' fake OpenAI upstream, as a process of its own so that it does not share an event loop with the load
// generator. Prints `listening on ORIGIN`; exits on SIGTERM/SIGINT.
import { startFakeOpenAI } from '../test/fakes/openai.js'

const fake = await startFakeOpenAI()
// The fake records every call for test assertions; under load that list would grow until the process ran out of memory.
const forget = setInterval(() => { fake.calls.length = 0 }, 1000)
process.stdout.write(`listening on ${fake.origin}\n`)

let closing = false
function shutdown(): void {
  if (closing) return
  closing = true
  clearInterval(forget)
  fake.close().then(() => process.exit(0), () => process.exit(1))
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
