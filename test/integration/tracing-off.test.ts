import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeCollector, type FakeCollector } from '../fakes/otlp-collector.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { listening } from '../helpers/gateway-process.js'
import { chatConfig, tempDataDir, TEST_KEY } from '../helpers/gateway.js'
import { runGateway } from '../helpers/spawn-gateway.js'
import { until } from '../helpers/until.js'

/**
 * Preloaded into the gateway process: at its exit, the files of every module it loaded through Node's loader (a
 * package imported from ESM is loaded as CommonJS, and cached there) whose path names @opentelemetry.
 */
const PRELOAD = `
const { writeFileSync } = require('node:fs')
const { isMainThread } = require('node:worker_threads')
if (isMainThread) process.on('exit', () => {
  writeFileSync(process.env.GATEHOUSE_TEST_MODULES_OUT, JSON.stringify(Object.keys(require.cache).filter((f) => f.includes('@opentelemetry'))))
})
`

/** The @opentelemetry packages among the loaded files, by name. */
const packagesOf = (files: string[]) => [...new Set(files.map((f) => /@opentelemetry\/[^/]+/.exec(f)![0]))].sort()
/**
 * What a gateway loads with tracing off: only the API package, which prom-client (the metrics) imports for its
 * exemplars whatever tracing does. No SDK, exporter or resource package.
 */
const LOADED_WHEN_OFF = ['@opentelemetry/api']

/** The standard variables a run must not inherit from the test's own environment: each case sets what it means. */
const NO_OTEL_ENV = { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', OTEL_SDK_DISABLED: '', OTEL_TRACES_EXPORTER: '', OTEL_EXPORTER_OTLP_HEADERS: '' }

let upstream: FakeOpenAI
let collector: FakeCollector
beforeAll(async () => {
  ;[upstream, collector] = await Promise.all([startFakeOpenAI(), startFakeCollector()])
})
afterAll(async () => {
  await Promise.all([upstream?.close(), collector?.close()])
})

/** Runs the headless gateway with `env`, serves one chat completion, stops it with SIGTERM: the @opentelemetry modules it loaded, and its stderr. */
async function serveOne(env: Record<string, string>): Promise<{ modules: string[]; stderr: string }> {
  const dir = tempDataDir()
  try {
    const configPath = join(dir.dir, 'config.json')
    writeFileSync(configPath, JSON.stringify(chatConfig([{ id: 'a', baseUrl: upstream.url }], { network: { allowPrivateAddresses: true } })))
    const preload = join(dir.dir, 'modules-at-exit.cjs')
    writeFileSync(preload, PRELOAD)
    const out = join(dir.dir, 'modules.json')
    mkdirSync(join(dir.dir, 'data'))
    const run = runGateway(['--config', configPath, '--port', '0', '--data-dir', join(dir.dir, 'data')], ['--require', preload], { ...NO_OTEL_ENV, ...env, GATEHOUSE_TEST_MODULES_OUT: out })
    try {
      const url = await listening(run)
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] }),
      })
      expect(res.status).toBe(200)
      await res.text()
    } finally {
      run.child.kill('SIGTERM')
    }
    const code = await Promise.race([run.exited, new Promise<'late'>((r) => setTimeout(() => r('late'), 15_000))])
    expect(code, run.stderr()).toBe(0)
    return { modules: JSON.parse(readFileSync(out, 'utf8')) as string[], stderr: run.stderr() }
  } finally {
    dir.remove()
  }
}

describe('tracing off (the default)', () => {
  it('loads none of the OpenTelemetry SDK and sends nothing, with no OTEL_* variable and no telemetry in the config', async () => {
    const { modules, stderr } = await serveOne({})
    expect(packagesOf(modules)).toEqual(LOADED_WHEN_OFF)
    expect(stderr).not.toContain('tracing')
    expect(collector.exports).toEqual([])
  })

  it('stays off with OTEL_SDK_DISABLED=true, although an endpoint is set', async () => {
    const { modules } = await serveOne({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SDK_DISABLED: 'true' })
    expect(packagesOf(modules)).toEqual(LOADED_WHEN_OFF)
    expect(collector.exports).toEqual([])
  })

  it('is turned on by OTEL_EXPORTER_OTLP_ENDPOINT: the modules load, the spans reach the collector with OTEL_EXPORTER_OTLP_HEADERS, by the stop at the latest', async () => {
    const secret = 'env-collector-secret-81f3a9'
    const { modules, stderr } = await serveOne({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_HEADERS: `x-collector-key=${secret}` })
    // The same evidence as above sees them when they are loaded.
    expect(packagesOf(modules)).toEqual(expect.arrayContaining(['@opentelemetry/api', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/resources', '@opentelemetry/sdk-trace']))
    expect(stderr).toContain(`tracing: spans go to ${collector.url}/v1/traces over OTLP/HTTP (service gatehouse)`)
    expect(stderr).not.toContain(secret)
    const spans = await until('the chat completion\'s span', 5_000, () => collector.spans.find((s) => s.name === 'chat test-gpt' && s.kind === 2))
    expect(spans.resource['service.name']).toBe('gatehouse')
    expect(collector.exports.every((e) => e.headers['x-collector-key'] === secret && !e.body.includes(secret))).toBe(true)
  })
})
