// The tests' fake upstreams — OpenAI, Gemini and Anthropic — in one process of its own, so that they do not share an
// event loop with the load generator. Prints `gemini on ORIGIN` and `anthropic on ORIGIN`, then `listening on ORIGIN`
// (the OpenAI one, the load tests' target); exits on SIGTERM/SIGINT.
import { startFakeAnthropic } from '../test/fakes/anthropic.js'
import { startFakeGemini } from '../test/fakes/gemini.js'
import { startFakeOpenAI } from '../test/fakes/openai.js'

const [openai, gemini, anthropic] = await Promise.all([startFakeOpenAI(), startFakeGemini(), startFakeAnthropic()])
const fakes = [openai, gemini, anthropic]
// The fakes record every call for test assertions; under load those lists would grow until the process ran out of memory.
const forget = setInterval(() => { for (const f of fakes) f.calls.length = 0 }, 1000)
process.stdout.write(`gemini on ${gemini.url}\nanthropic on ${anthropic.url}\nlistening on ${openai.origin}\n`)

let closing = false
function shutdown(): void {
  if (closing) return
  closing = true
  clearInterval(forget)
  Promise.all(fakes.map((f) => f.close())).then(() => process.exit(0), () => process.exit(1))
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
