// The fallback load generator when wrk is not installed: autocannon in a process of its own (so that it does not
// share the runner's event loop), on the load core with the runner. argv[2]: a JSON LoadJob. Prints one JSON LoadRun.
import autocannon from 'autocannon'
import { readFileSync } from 'node:fs'
import type { LoadJob, LoadRun } from './load.js'

const job = JSON.parse(process.argv[2]!) as LoadJob
const run = autocannon({
  url: job.url,
  method: 'POST',
  headers: { ...job.headers, 'content-type': 'application/json', authorization: job.authorization },
  body: readFileSync(job.bodyFile, 'utf8'),
  connections: job.connections,
  duration: job.durationS,
})
// autocannon's own percentiles come from a histogram with 1 ms resolution, too coarse for sub-millisecond
// differences; its per-response timings are fractional, so the percentiles are taken from those instead.
const times: number[] = []
run.on('response', (_client, status, _bytes, ms) => { if (status >= 200 && status < 300) times.push(ms) })
const result = await run
times.sort((a, b) => a - b)
const rank = (p: number) => times[Math.min(times.length - 1, Math.max(0, Math.ceil((p / 100) * times.length) - 1))] ?? NaN
const out: LoadRun = {
  requestsPerSec: result.requests.average,
  p50: rank(50),
  p99: rank(99),
  requests: result.requests.total ?? times.length,
  answered2xx: times.length,
  errors: result.errors,
  non2xx: result.non2xx,
}
process.stdout.write(`${JSON.stringify(out)}\n`)
