// Fuzzes the admin API's writes (every admin route with a request body), signed in with the admin token.
// See harness.ts for seeds, run counts and replaying a failure.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { ADMIN_ROUTES } from '../../electron/gateway/routes/admin.js'
import { TEST_KEY } from '../helpers/gateway.js'
import { startFuzzGateway, type FuzzGateway } from './fuzz-gateway.js'
import { expectHealthy, expectSoundAnswer, fuzzParams, send, testTimeout } from './harness.js'
import { anyBody } from './request-arbitrary.js'
import { anyText, type Schema } from './schema-arbitrary.js'

/** Runs per route (each route a property of its own). */
const RUNS = 250
const WRITES = ADMIN_ROUTES.filter((r) => r.doc.request && r.method !== 'GET')

// Connect tools writes the tools' settings files where the environment says they are: here, a folder of the test's
// own (never the machine's ~/.claude or ~/.codex), with a Claude Code settings file to merge into.
const toolHomes = mkdtempSync(join(tmpdir(), 'gatehouse-fuzz-tools-'))
process.env.CLAUDE_CONFIG_DIR = join(toolHomes, 'claude')
process.env.CODEX_HOME = join(toolHomes, 'codex')
process.env.HOME = toolHomes
mkdirSync(process.env.CLAUDE_CONFIG_DIR)
writeFileSync(join(process.env.CLAUDE_CONFIG_DIR, 'settings.json'), '{\n  "statusLine": { "type": "command", "command": "x" }\n}\n')

let fz: FuzzGateway
beforeAll(async () => {
  fz = await startFuzzGateway()
})
afterAll(async () => {
  await fz.stop()
  rmSync(toolHomes, { recursive: true, force: true })
})

/**
 * Upstream addresses in generated bodies point at a closed loopback port: Test connection calls the address it is
 * given, and no fuzzed body may reach outside the machine (or wait on a DNS lookup).
 */
const keepLinksLocal = (bytes: Buffer): Buffer =>
  Buffer.from(bytes.toString('latin1').replace(/("baseUrl"\s*:\s*)"https?:\/\/(?:[^"\\]|\\.)*"/g, '$1"http://127.0.0.1:9"'), 'latin1')

/** Ids the fuzz gateway has (groups, upstreams, panel documents), ids it has not, and bad escapes. */
const id = fc.oneof(
  fc.constantFrom('main', 'claude', 'claude-code', 'codex', 'gemini-cli', 'openai', 'images', 'anthropic', 'gemini', 'dashscope', 'chat', 'video', 'ui', '%', '%E0%A4%A', '__proto__', 'constructor'),
  anyText(12).filter((t) => t !== '').map(encodeURIComponent),
)

describe.each(WRITES.map((r) => [`${r.method} ${r.docPath ?? r.path}`, r] as const))('%s', (_name, route) => {
  it('answers any body soundly', async () => {
    const schema = route.doc.request!.schema as Schema
    const request = fc.tuple(anyBody(schema, {}), id)
    await fc.assert(fc.asyncProperty(request, async ([body, segment]) => {
      const path = typeof route.path === 'string' ? route.path : route.docPath!.replace(/\{\w+\}/g, segment)
      const contentType = route.doc.request!.contentType ?? 'application/json'
      const answer = await send(`${fz.gw.url}${path}`, {
        method: route.method,
        headers: { authorization: `Bearer ${fz.gw.adminToken}`, 'content-type': contentType },
        body: keepLinksLocal(body.bytes),
      })
      expectSoundAnswer(answer, 'chat', `${route.method} ${path} ${body.kind}: ${body.bytes.toString('utf8').slice(0, 300)}`)
    }), fuzzParams(RUNS))
    await expectHealthy(fz.gw, TEST_KEY)
  }, testTimeout(RUNS))
})
