import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parse as parseToml } from '@decimalturn/toml-patch'
import { parse as parseJsonc } from 'jsonc-parser'
import { UnreadableFile } from '../../../../electron/gateway/connect/config-doc.js'
import { commitConnect, commitRelease, ConnectRefused, planConnect, planRelease, toolStates, type ConnectPlace } from '../../../../electron/gateway/connect/connector.js'
import { MAX_SETTINGS_BYTES, SECRET_MASK } from '../../../../electron/gateway/connect/edit-files.js'
import { readConnections } from '../../../../electron/gateway/connect/record.js'

const FIXTURES = join(import.meta.dirname, '../../../fixtures/connect')
const fixture = (name: string) => readFileSync(join(FIXTURES, name))
const KEY = 'gh-connect-test-secret-0123456789abcdef'
const TARGET = { baseUrl: 'http://127.0.0.1:8787', key: KEY, model: 'test-gpt' }
const META = { group: 'g', model: 'test-gpt', keyId: 'k1', keyHint: 'gh-…cdef' }
const mode = (path: string) => statSync(path).mode & 0o777

let root: string
let place: ConnectPlace
let claudeFile: string
let codexFile: string
let profileFile: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'gatehouse-connect-'))
  mkdirSync(join(root, 'data'))
  mkdirSync(join(root, 'bin'))
  place = { dataDir: join(root, 'data'), env: { HOME: join(root, 'home'), CLAUDE_CONFIG_DIR: join(root, 'claude'), CODEX_HOME: join(root, 'codex'), PATH: join(root, 'bin') } }
  claudeFile = join(root, 'claude', 'settings.json')
  codexFile = join(root, 'codex', 'config.toml')
  profileFile = join(root, 'codex', 'gatehouse.config.toml')
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

function lay(path: string, bytes: Buffer | string, fileMode = 0o644) {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, bytes)
  chmodSync(path, fileMode)
}
const text = (path: string) => readFileSync(path, 'utf8')
/** The lines of `after` that are not in `before` (both as lists; order kept). */
function addedLines(before: string, after: string): string[] {
  const rest = before.split('\n')
  const added: string[] = []
  for (const line of after.split('\n')) {
    if (rest[0] === line) rest.shift()
    else added.push(line)
  }
  expect(rest).toEqual([])
  return added
}

describe('Claude Code: only env.ANTHROPIC_BASE_URL and env.ANTHROPIC_AUTH_TOKEN', () => {
  it('merges into a real settings file (plugins, hooks, status line, unknown keys): two lines added, a backup, undo and disconnect give the bytes back', () => {
    const original = fixture('claude-settings.json')
    lay(claudeFile, original)
    const changes = planConnect(place, 'claude-code', TARGET)
    expect(changes).toHaveLength(1)
    expect(existsSync(join(root, 'claude'))).toBe(true)
    expect(readFileSync(claudeFile)).toEqual(original)
    // The diff adds the two lines, the secret masked.
    const diffAdded = changes[0].diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'))
    expect(diffAdded).toEqual([`+    "ANTHROPIC_AUTH_TOKEN": "${SECRET_MASK}",`, '+    "ANTHROPIC_BASE_URL": "http://127.0.0.1:8787",'])
    expect(changes[0].diff).not.toContain(KEY)
    expect(changes[0].diff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'))).toEqual([])

    const connection = commitConnect(place, 'claude-code', changes, META, new Date('2026-11-28T01:46:30.123Z'))
    const backup = join(root, 'claude', 'settings.json.gatehouse-backup-20261128T014630123Z')
    expect(connection.files).toEqual([{ path: claudeFile, backup, owned: [expect.objectContaining({ key: ['env', 'ANTHROPIC_BASE_URL'] }), expect.objectContaining({ key: ['env', 'ANTHROPIC_AUTH_TOKEN'] })], madeParents: [] }])
    expect(readFileSync(backup)).toEqual(original)
    const written = text(claudeFile)
    expect(addedLines(original.toString(), written)).toEqual([`    "ANTHROPIC_AUTH_TOKEN": "${KEY}",`, '    "ANTHROPIC_BASE_URL": "http://127.0.0.1:8787",'])
    const parsed = JSON.parse(written)
    const before = JSON.parse(original.toString())
    expect(parsed).toEqual({ ...before, env: { ...before.env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:8787', ANTHROPIC_AUTH_TOKEN: KEY } })
    // An existing file keeps its mode; the record holds no secret.
    expect(mode(claudeFile)).toBe(0o644)
    expect(readFileSync(join(place.dataDir, 'connections.json'), 'utf8')).not.toContain(KEY)
    expect(mode(join(place.dataDir, 'connections.json'))).toBe(0o600)

    // A dry run of undo shows the way back with the secret masked, and writes nothing.
    const undo = planRelease(place, 'claude-code', 'undo')
    expect(undo.changes[0].diff).toContain(`-    "ANTHROPIC_AUTH_TOKEN": "${SECRET_MASK}",`)
    expect(undo.changes[0].diff).not.toContain(KEY)
    expect(text(claudeFile)).toBe(written)
    commitRelease(place, 'claude-code', undo.changes)
    expect(readFileSync(claudeFile)).toEqual(original)
    expect(readConnections(place.dataDir)).toEqual({})

    // Connected again, then disconnected: the same bytes again.
    commitConnect(place, 'claude-code', planConnect(place, 'claude-code', TARGET), META)
    const disconnect = planRelease(place, 'claude-code', 'disconnect')
    expect(disconnect.changes[0].diff).not.toContain(KEY)
    commitRelease(place, 'claude-code', disconnect.changes)
    expect(readFileSync(claudeFile)).toEqual(original)
  })

  it('keeps the comments, tabs and trailing commas of a JSONC file; disconnect takes out the env object it made', () => {
    const original = fixture('claude-settings-commented.json')
    lay(claudeFile, original)
    commitConnect(place, 'claude-code', planConnect(place, 'claude-code', TARGET), META)
    const written = text(claudeFile)
    expect(addedLines(original.toString(), written)).toEqual(['\t"env": {', `\t\t"ANTHROPIC_AUTH_TOKEN": "${KEY}",`, '\t\t"ANTHROPIC_BASE_URL": "http://127.0.0.1:8787"', '\t},'])
    expect(parseJsonc(written, [], { allowTrailingComma: true }).env).toEqual({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:8787', ANTHROPIC_AUTH_TOKEN: KEY })
    commitRelease(place, 'claude-code', planRelease(place, 'claude-code', 'disconnect').changes)
    expect(readFileSync(claudeFile)).toEqual(original)
  })

  it("replaces another provider's values, and disconnect puts them back as they were", () => {
    const original = fixture('claude-settings-other-provider.json')
    lay(claudeFile, original, 0o600)
    const changes = planConnect(place, 'claude-code', TARGET)
    // Neither the old token nor the new key is shown.
    expect(changes[0].diff).not.toContain('sk-relay-previous-token-9f8e7d6c')
    expect(changes[0].diff).not.toContain(KEY)
    expect(changes[0].diff).toContain('-    "ANTHROPIC_BASE_URL": "https://api.example-relay.com",')
    commitConnect(place, 'claude-code', changes, META)
    expect(JSON.parse(text(claudeFile)).env).toEqual({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:8787', ANTHROPIC_AUTH_TOKEN: KEY, API_TIMEOUT_MS: '600000' })
    commitRelease(place, 'claude-code', planRelease(place, 'claude-code', 'disconnect').changes)
    expect(readFileSync(claudeFile)).toEqual(original)
    expect(mode(claudeFile)).toBe(0o600)
  })

  it("leaves a value the user changed after connecting; undo still restores the backup byte for byte", () => {
    const original = fixture('claude-settings.json')
    lay(claudeFile, original)
    commitConnect(place, 'claude-code', planConnect(place, 'claude-code', TARGET), META)
    writeFileSync(claudeFile, text(claudeFile).replace('http://127.0.0.1:8787', 'https://mine.example'))
    const disconnect = planRelease(place, 'claude-code', 'disconnect')
    const after = JSON.parse(disconnect.changes[0].after!)
    expect(after.env).toEqual({ ANTHROPIC_BASE_URL: 'https://mine.example', CLAUDE_CODE_ENABLE_TELEMETRY: '0', BASH_DEFAULT_TIMEOUT_MS: '120000' })
    const undo = planRelease(place, 'claude-code', 'undo')
    commitRelease(place, 'claude-code', undo.changes)
    expect(readFileSync(claudeFile)).toEqual(original)
  })

  it('creates a missing settings file 0600 in a 0700 folder, and undo and disconnect remove it', () => {
    const changes = planConnect(place, 'claude-code', TARGET)
    expect(changes[0].before).toBeNull()
    commitConnect(place, 'claude-code', changes, META)
    expect(JSON.parse(text(claudeFile))).toEqual({ env: { ANTHROPIC_AUTH_TOKEN: KEY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:8787' } })
    expect(mode(claudeFile)).toBe(0o600)
    expect(mode(join(root, 'claude'))).toBe(0o700)
    expect(readConnections(place.dataDir)['claude-code']!.files[0].backup).toBeNull()
    commitRelease(place, 'claude-code', planRelease(place, 'claude-code', 'disconnect').changes)
    expect(existsSync(claudeFile)).toBe(false)
    commitConnect(place, 'claude-code', planConnect(place, 'claude-code', TARGET), META)
    commitRelease(place, 'claude-code', planRelease(place, 'claude-code', 'undo').changes)
    expect(existsSync(claudeFile)).toBe(false)
  })

  it('never touches a file it cannot parse, nor one whose env is not an object', () => {
    for (const [name, kind, detail] of [
      ['claude-settings-broken.json', 'syntax', { format: 'JSON', line: 4 }],
      ['claude-settings-env-string.json', 'not_table', { key: 'env' }],
    ] as const) {
      const original = fixture(name)
      lay(claudeFile, original)
      const before = statSync(claudeFile).mtimeMs
      const err = (() => {
        try {
          planConnect(place, 'claude-code', TARGET)
        } catch (e) {
          return e
        }
      })()
      expect(err).toBeInstanceOf(UnreadableFile)
      expect(err).toMatchObject({ path: claudeFile, kind, detail })
      expect(readFileSync(claudeFile)).toEqual(original)
      expect(statSync(claudeFile).mtimeMs).toBe(before)
    }
    expect(readConnections(place.dataDir)).toEqual({})
  })

  it('reads no further than a settings file can be: a larger one (or a device at that path) is refused untouched', () => {
    // valid JSON, one byte over the bound
    const huge = Buffer.from(`{"pad":"${'x'.repeat(MAX_SETTINGS_BYTES - 9)}"}`)
    expect(huge.length).toBe(MAX_SETTINGS_BYTES + 1)
    lay(claudeFile, huge)
    expect(() => planConnect(place, 'claude-code', TARGET)).toThrow(expect.objectContaining({ path: claudeFile, kind: 'too_large', detail: { max: MAX_SETTINGS_BYTES } }))
    // Byte for byte (Buffer.equals: a deep equality walks 4 MiB one element at a time, ~14 s of CPU).
    expect(readFileSync(claudeFile).equals(huge)).toBe(true)
    expect(readConnections(place.dataDir)).toEqual({})
  })
})

describe('Codex: a [model_providers.gatehouse] table and the profile file gatehouse.config.toml', () => {
  it('merges into a real config.toml (MCP servers, another provider, projects, comments): the table appended, a backup, undo and disconnect give the bytes back', () => {
    const original = fixture('codex-config.toml')
    lay(codexFile, original)
    const changes = planConnect(place, 'codex', TARGET)
    expect(changes.map((c) => c.path)).toEqual([codexFile, profileFile])
    expect(changes[0].diff).not.toContain(KEY)
    expect(changes[0].diff).toContain(`+experimental_bearer_token = "${SECRET_MASK}"`)
    const connection = commitConnect(place, 'codex', changes, META, new Date('2026-11-28T02:00:00.000Z'))
    expect(connection.files.map((f) => f.backup)).toEqual([join(root, 'codex', 'config.toml.gatehouse-backup-20261128T020000000Z'), null])
    const written = text(codexFile)
    expect(written.startsWith(original.toString())).toBe(true)
    expect(written.slice(original.toString().length)).toBe(
      `\n[model_providers.gatehouse]\nname = "Gatehouse"\nbase_url = "http://127.0.0.1:8787/v1"\nwire_api = "responses"\nexperimental_bearer_token = "${KEY}"\n`,
    )
    const before = parseToml(original.toString())
    expect(parseToml(written)).toEqual({ ...before, model_providers: { ...before.model_providers, gatehouse: { name: 'Gatehouse', base_url: 'http://127.0.0.1:8787/v1', wire_api: 'responses', experimental_bearer_token: KEY } } })
    expect(text(profileFile)).toBe('model_provider = "gatehouse"\nmodel = "test-gpt"\n')
    expect(mode(profileFile)).toBe(0o600)
    expect(mode(codexFile)).toBe(0o644)

    commitRelease(place, 'codex', planRelease(place, 'codex', 'undo').changes)
    expect(readFileSync(codexFile)).toEqual(original)
    expect(existsSync(profileFile)).toBe(false)

    commitConnect(place, 'codex', planConnect(place, 'codex', TARGET), META)
    commitRelease(place, 'codex', planRelease(place, 'codex', 'disconnect').changes)
    expect(readFileSync(codexFile)).toEqual(original)
    expect(existsSync(profileFile)).toBe(false)
  })

  it('creates CODEX_HOME, config.toml and the profile 0600 when there is nothing yet', () => {
    commitConnect(place, 'codex', planConnect(place, 'codex', TARGET), META)
    expect(mode(join(root, 'codex'))).toBe(0o700)
    expect(mode(codexFile)).toBe(0o600)
    expect(parseToml(text(codexFile))).toEqual({ model_providers: { gatehouse: { name: 'Gatehouse', base_url: 'http://127.0.0.1:8787/v1', wire_api: 'responses', experimental_bearer_token: KEY } } })
    commitRelease(place, 'codex', planRelease(place, 'codex', 'disconnect').changes)
    expect(existsSync(codexFile)).toBe(false)
    expect(existsSync(profileFile)).toBe(false)
  })

  it('never touches a config.toml it cannot parse (nor writes the profile)', () => {
    const original = fixture('codex-config-broken.toml')
    lay(codexFile, original)
    expect(() => planConnect(place, 'codex', TARGET)).toThrow(UnreadableFile)
    try {
      planConnect(place, 'codex', TARGET)
    } catch (err) {
      expect(err).toMatchObject({ path: codexFile, kind: 'syntax', detail: { format: 'TOML' } })
    }
    expect(readFileSync(codexFile)).toEqual(original)
    expect(existsSync(profileFile)).toBe(false)
  })
})

describe('connections', () => {
  it('refuses a second connection, Gemini CLI, and an undo or disconnect of nothing; undo without its backup says so', () => {
    lay(claudeFile, fixture('claude-settings.json'))
    commitConnect(place, 'claude-code', planConnect(place, 'claude-code', TARGET), META)
    expect(() => planConnect(place, 'claude-code', TARGET)).toThrow(ConnectRefused)
    expect(() => planConnect(place, 'gemini-cli', TARGET)).toThrow(expect.objectContaining({ kind: 'unsupported' }))
    expect(() => planRelease(place, 'codex', 'undo')).toThrow(expect.objectContaining({ kind: 'not_connected' }))
    unlinkSync(readConnections(place.dataDir)['claude-code']!.files[0].backup!)
    expect(() => planRelease(place, 'claude-code', 'undo')).toThrow(expect.objectContaining({ kind: 'backup_gone' }))
    // Disconnect needs no backup: the keys written are known by their hashes.
    commitRelease(place, 'claude-code', planRelease(place, 'claude-code', 'disconnect').changes)
    expect(readFileSync(claudeFile)).toEqual(fixture('claude-settings.json'))
  })

  it('finds the programs on PATH and the settings folders', () => {
    for (const program of ['claude', 'gemini']) {
      writeFileSync(join(root, 'bin', program), '#!/bin/sh\n')
      chmodSync(join(root, 'bin', program), 0o755)
    }
    mkdirSync(join(root, 'home', '.gemini'), { recursive: true })
    lay(codexFile, 'model = "o3"\n')
    copyFileSync(join(FIXTURES, 'claude-settings.json'), join(root, 'x.json'))
    const states = toolStates(place).map((s) => ({ id: s.spec.id, program: s.program, homeFound: s.homeFound, files: s.files, connected: s.connection !== null }))
    expect(states).toEqual([
      { id: 'claude-code', program: join(root, 'bin', 'claude'), homeFound: false, files: [claudeFile], connected: false },
      { id: 'codex', program: null, homeFound: true, files: [codexFile, profileFile], connected: false },
      { id: 'gemini-cli', program: join(root, 'bin', 'gemini'), homeFound: true, files: [], connected: false },
    ])
  })
})
