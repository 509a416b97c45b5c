// The tests' fake upstreams — OpenAI, Gemini, Anthropic and OpenAI Images — in one process of its own, so that they do
// not share an event loop with the load generator. Prints `gemini on ORIGIN`, `anthropic on ORIGIN` and `images on
// ORIGIN` (the images API is under ORIGIN/v1), then `listening on ORIGIN` (the OpenAI one, the load tests' target);
// exits on SIGTERM/SIGINT. argv[2]: the API key the images fake requires.
import { startFakeAnthropic } from '../test/fakes/anthropic.js'
import { startFakeGemini } from '../test/fakes/gemini.js'
import { startFakeOpenAIImages } from '../test/fakes/images/openai-images.js'
import { startFakeOpenAI } from '../test/fakes/openai.js'

const imagesKey = process.argv[2]
// Each edit parses the whole upload (busboy, about 40 MB in the benchmark) and answers one small cached PNG, so a call
// costs little beyond reading the bytes; the mask is checked against the first image, as the API does.
const [openai, gemini, anthropic, images] = await Promise.all([startFakeOpenAI(), startFakeGemini(), startFakeAnthropic(), startFakeOpenAIImages({ apiKey: imagesKey })])
const fakes = [openai, gemini, anthropic]
// The fakes record every call for test assertions; under load those lists would grow until the process ran out of memory.
const forget = setInterval(() => { for (const f of fakes) f.calls.length = 0 }, 1000)
// An images call holds its uploaded file bytes (about 40 MB): forgotten often, so that only a few are ever held.
const forgetImages = setInterval(() => { images.calls.length = 0; images.downloads.length = 0 }, 100)
process.stdout.write(`gemini on ${gemini.url}\nanthropic on ${anthropic.url}\nimages on ${images.origin}\nlistening on ${openai.origin}\n`)

let closing = false
function shutdown(): void {
  if (closing) return
  closing = true
  clearInterval(forget)
  clearInterval(forgetImages)
  Promise.all([...fakes, images].map((f) => f.close())).then(() => process.exit(0), () => process.exit(1))
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
