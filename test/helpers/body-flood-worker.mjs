// A worker thread that sends `count` JSON bodies of `size` bytes at once to `url` + `path`, each streamed from a
// generator over one 64 KiB piece (never allocated whole), and posts back every answer. Run off the test's own
// thread, so the thread that times other clients is not the one busy writing 1.6 GB. Plain JavaScript: a worker
// thread is not transformed by the test runner.
import { request } from 'node:http'
import { parentPort, workerData } from 'node:worker_threads'

/** @type {{ url: string, path: string, key: string, count: number, size: number, chunked: boolean, head: string, tail: string, deadlineMs: number }} */
const { url, path, key, count, size, chunked, head, tail, deadlineMs } = workerData
const PIECE = Buffer.from('lorem ipsum dolor sit amet '.repeat(2428))

/** The body: `head`, filler text, `tail`, `size` bytes in all. */
function* body() {
  const first = Buffer.from(head)
  const last = Buffer.from(tail)
  yield first
  for (let left = size - first.length - last.length; left > 0; left -= PIECE.length) yield left >= PIECE.length ? PIECE : PIECE.subarray(0, left)
  yield last
}

/** One request: its answer ({ status, headers, body }), or status -1 with the error (a reset, or `deadlineMs` passed). */
function send() {
  return new Promise((resolve) => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': size }) }
    const req = request(url + path, { method: 'POST', headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (part) => (text += part))
      res.on('end', () => {
        clearTimeout(deadline)
        resolve({ status: res.statusCode, headers: res.headers, body: text })
      })
    })
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs)
    req.on('error', (err) => {
      clearTimeout(deadline)
      resolve({ status: -1, headers: {}, body: String(err) })
    })
    const pieces = body()
    const pump = () => {
      for (;;) {
        const next = pieces.next()
        if (next.done) return void req.end()
        if (!req.write(next.value)) return void req.once('drain', pump)
      }
    }
    pump()
  })
}

parentPort.postMessage(await Promise.all(Array.from({ length: count }, send)))
