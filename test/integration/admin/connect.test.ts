import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { chatConfig, tempDataDir, withGateway } from '../../helpers/gateway.js'
import { adminClient, apiError, UNAUTHORIZED } from './admin-helpers.js'

const FIXTURES = join(import.meta.dirname, '../../fixtures/connect')
const fixture = (name: string) => readFileSync(join(FIXTURES, name))

// The tools' homes, as CLAUDE_CONFIG_DIR, CODEX_HOME and HOME move them, read by the gateway at each call.
const homes = tempDataDir()
const claudeDir = join(homes.dir, 'claude')
const codexDir = join(homes.dir, 'codex')
const bin = join(homes.dir, 'bin')
process.env.CLAUDE_CONFIG_DIR = claudeDir
process.env.CODEX_HOME = codexDir
process.env.HOME = join(homes.dir, 'home')
process.env.PATH = bin
process.env.ANTHROPIC_BASE_URL = 'https://api.anthropic.com'
delete process.env.OPENAI_BASE_URL
afterAll(() => homes.remove())

const claudeFile = join(claudeDir, 'settings.json')
const codexFile = join(codexDir, 'config.toml')

describe('admin API: connect tools', () => {
  const { gw } = withGateway({ config: () => chatConfig([{ id: 'up1', baseUrl: 'http://127.0.0.1:9' }]) })
  const admin = adminClient(gw)
  const models = (key: string) => fetch(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })
  const keys = async () => (await admin.get('/admin/v1/keys')).json as Array<{ id: string; group: string; name: string | null }>

  beforeEach(() => {
    rmSync(claudeDir, { recursive: true, force: true })
    rmSync(codexDir, { recursive: true, force: true })
    mkdirSync(bin, { recursive: true })
  })

  it('lists the tools found on the machine, their files, and the SDK variables', async () => {
    writeFileSync(join(bin, 'claude'), '#!/bin/sh\n')
    chmodSync(join(bin, 'claude'), 0o755)
    mkdirSync(join(homes.dir, 'home', '.gemini'), { recursive: true })
    const res = await admin.get('/admin/v1/connect')
    expect(res.status).toBe(200)
    expect(res.json).toEqual({
      tools: [
        { tool: 'claude-code', name: 'Claude Code', supported: true, protocol: 'messages', program: join(bin, 'claude'), homeFound: false, files: [claudeFile], usage: 'claude', connection: null },
        { tool: 'codex', name: 'Codex CLI', supported: true, protocol: 'chat', program: null, homeFound: false, files: [codexFile, join(codexDir, 'gatehouse.config.toml')], usage: 'codex --profile gatehouse', connection: null },
        { tool: 'gemini-cli', name: 'Gemini CLI', supported: false, protocol: null, program: null, homeFound: true, files: [], usage: 'gemini', connection: null },
      ],
      sdk: [
        { name: 'OPENAI_BASE_URL', value: null, suggested: `${gw.url}/v1`, pointsHere: false },
        { name: 'ANTHROPIC_BASE_URL', value: 'https://api.anthropic.com', suggested: gw.url, pointsHere: false },
      ],
    })
    const signedOut = await fetch(`${gw.url}/admin/v1/connect`)
    expect(signedOut.status).toBe(401)
    expect(await signedOut.json()).toEqual(UNAUTHORIZED)
  })

  it('connects Claude Code: a dry run writes nothing; then a key of the messages group in env, undone byte for byte with the key revoked', async () => {
    const original = fixture('claude-settings.json')
    mkdirSync(claudeDir, { recursive: true })
    writeFileSync(claudeFile, original)
    const keysBefore = (await keys()).length

    // Without a group, the first group of the messages protocol.
    const firstMessages = ((await admin.get('/admin/v1/groups')).json as Array<{ id: string; protocol: string }>).find((g) => g.protocol === 'messages')!.id
    const dry = await admin.post('/admin/v1/connect/claude-code', { dryRun: true })
    expect(dry.status).toBe(200)
    expect(dry.json.connection).toBeNull()
    const dryNamed = await admin.post('/admin/v1/connect/claude-code', { dryRun: true, group: firstMessages })
    expect(dryNamed.json).toEqual(dry.json)
    expect(dry.json).toMatchObject({ tool: 'claude-code', dryRun: true, connection: null, usage: 'claude', changes: [{ path: claudeFile, action: 'update', backup: null }] })
    expect(dry.json.changes[0].diff).toContain(`+    "ANTHROPIC_BASE_URL": "${gw.url}",`)
    expect(dry.json.changes[0].diff).toContain('+    "ANTHROPIC_AUTH_TOKEN": "••••••••",')
    expect(readFileSync(claudeFile)).toEqual(original)
    expect((await keys()).length).toBe(keysBefore)

    const done = await admin.post('/admin/v1/connect/claude-code', { group: 'anthropic-only' })
    expect(done.status).toBe(201)
    expect(done.headers.get('cache-control')).toBe('no-store')
    const written = JSON.parse(readFileSync(claudeFile, 'utf8'))
    const token: string = written.env.ANTHROPIC_AUTH_TOKEN
    expect(written.env.ANTHROPIC_BASE_URL).toBe(gw.url)
    expect(done.text).not.toContain(token)
    const key = (await keys()).find((k) => k.name === 'Claude Code (connected)')!
    expect(key.group).toBe('anthropic-only')
    expect(done.json).toMatchObject({ dryRun: false, connection: { group: 'anthropic-only', keyId: key.id, files: [{ path: claudeFile, backup: expect.stringMatching(/settings\.json\.gatehouse-backup-\d{8}T\d{9}Z$/) }] } })
    expect(readFileSync(done.json.changes[0].backup)).toEqual(original)
    expect((await models(token)).status).toBe(200)

    const again = await admin.post('/admin/v1/connect/claude-code', {})
    expect(again.status).toBe(409)
    expect(again.json).toEqual(apiError('conflict', 'Gatehouse has already connected Claude Code: disconnect it (or undo) first.'))
    expect((await admin.get('/admin/v1/connect')).json.tools[0].connection).toMatchObject({ group: 'anthropic-only', keyId: key.id })

    const undoDry = await admin.post('/admin/v1/connect/claude-code/undo', { dryRun: true })
    expect(undoDry.json).toMatchObject({ dryRun: true, changes: [{ path: claudeFile, action: 'update' }], connection: { keyId: key.id } })
    expect(undoDry.text).not.toContain(token)
    const undone = await admin.post('/admin/v1/connect/claude-code/undo', {})
    expect(undone.status).toBe(200)
    expect(undone.json).toMatchObject({ dryRun: false, connection: null })
    expect(readFileSync(claudeFile)).toEqual(original)
    expect((await models(token)).status).toBe(401)
    expect((await keys()).some((k) => k.id === key.id)).toBe(false)

    const nothing = await admin.post('/admin/v1/connect/claude-code/disconnect', {})
    expect(nothing.status).toBe(409)
    expect(nothing.json).toEqual(apiError('conflict', 'Claude Code is not connected by Gatehouse: there is nothing to undo or disconnect.'))
  })

  it('connects Codex to a chat group and its first model, and disconnect takes out only what it added', async () => {
    const original = fixture('codex-config.toml')
    mkdirSync(codexDir, { recursive: true })
    writeFileSync(codexFile, original)
    const done = await admin.post('/admin/v1/connect/codex', { group: 'main' })
    expect(done.status).toBe(201)
    expect(done.json.changes.map((c: { action: string }) => c.action)).toEqual(['update', 'create'])
    expect(readFileSync(join(codexDir, 'gatehouse.config.toml'), 'utf8')).toBe('model_provider = "gatehouse"\nmodel = "test-gpt"\n')
    const text = readFileSync(codexFile, 'utf8')
    const token = /experimental_bearer_token = "([^"]+)"/.exec(text)![1]
    expect(text).toContain(`base_url = "${gw.url}/v1"`)
    expect((await models(token)).status).toBe(200)
    const gone = await admin.post('/admin/v1/connect/codex/disconnect', {})
    expect(gone.json.changes.map((c: { action: string }) => c.action)).toEqual(['update', 'delete'])
    expect(readFileSync(codexFile)).toEqual(original)
    expect(existsSync(join(codexDir, 'gatehouse.config.toml'))).toBe(false)
    expect((await models(token)).status).toBe(401)
  })

  it('never touches a file it cannot parse, and makes no key for it', async () => {
    const original = fixture('codex-config-broken.toml')
    mkdirSync(codexDir, { recursive: true })
    writeFileSync(codexFile, original)
    const keysBefore = (await keys()).length
    const res = await admin.post('/admin/v1/connect/codex', {})
    expect(res.status).toBe(409)
    expect(res.json).toEqual(apiError('conflict', `${codexFile} is not valid TOML (line 4), so it was left untouched: fix it or move it away, then try again.`))
    expect(readFileSync(codexFile)).toEqual(original)
    expect((await keys()).length).toBe(keysBefore)

    mkdirSync(claudeDir, { recursive: true })
    writeFileSync(claudeFile, fixture('claude-settings-broken.json'))
    const json = await admin.post('/admin/v1/connect/claude-code', {})
    expect(json.json).toEqual(apiError('conflict', `${claudeFile} is not valid JSON (line 4), so it was left untouched: fix it or move it away, then try again.`))
  })

  it('refuses Gemini CLI, an unknown tool, a group of the wrong protocol, a model not in the group, and unknown fields', async () => {
    const gemini = await admin.post('/admin/v1/connect/gemini-cli', {})
    expect(gemini.status).toBe(400)
    expect(gemini.json).toEqual(apiError('invalid_request', "Gemini CLI calls Gemini's own generateContent API, which Gatehouse does not serve: it cannot be connected."))
    const unknown = await admin.post('/admin/v1/connect/vim', {})
    expect(unknown.status).toBe(404)
    expect(unknown.json).toEqual(apiError('not_found', 'No tool "vim"', null, 'not_found_error'))
    const wrong = await admin.post('/admin/v1/connect/claude-code', { group: 'main' })
    expect(wrong.status).toBe(400)
    expect(wrong.json).toEqual(apiError('invalid_request', 'Group "main" uses the chat protocol; Claude Code needs a group of the messages protocol.', 'group'))
    const model = await admin.post('/admin/v1/connect/codex', { group: 'main', model: 'nope' })
    expect(model.json).toEqual(apiError('invalid_request', 'Group "main" has no model "nope".', 'model'))
    const noGroup = await admin.post('/admin/v1/connect/codex', { group: 'nope' })
    expect(noGroup.json).toEqual(apiError('not_found', 'No group "nope"', null, 'not_found_error'))
    const extra = await admin.post('/admin/v1/connect/codex', { force: true })
    expect(extra.status).toBe(400)
    expect(existsSync(codexFile)).toBe(false)
  })
})
