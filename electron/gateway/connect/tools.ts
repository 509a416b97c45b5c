import { existsSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, join } from 'node:path'
import type { ConfigFormat, KeyPath } from './config-doc.js'
import { jsonFormat } from './json-format.js'
import { tomlFormat } from './toml-format.js'
import type { ConnectTool } from '../../../shared/connect.js'

/** Where a connection points: the gateway's root address, the key's secret, and the model a tool must name. */
export interface Target {
  baseUrl: string
  key: string
  model: string
}

/** One value Gatehouse owns in a tool's file. */
export interface OwnedEntry {
  key: KeyPath
  value: string
  /** the gateway key: never shown in a diff or a log */
  secret?: boolean
}

export interface ToolFile {
  path: string
  format: ConfigFormat
  entries: OwnedEntry[]
}

export interface ToolSpec {
  id: ConnectTool
  name: string
  /** the program looked for on PATH */
  program: string
  /** the group protocol its key needs; null: Gatehouse does not speak this tool's protocol */
  protocol: 'messages' | 'chat' | null
  /** where the tool keeps its settings (the documented home, or the environment variable that moves it) */
  home(env: NodeJS.ProcessEnv): string
  /** the files a connection writes, and what it owns in each */
  files(env: NodeJS.ProcessEnv, target: Target): ToolFile[]
  /** how to use the tool once connected */
  usage: string
}

/** The id Codex knows Gatehouse by: the provider entry, and the profile file `<id>.config.toml`. */
export const CODEX_PROVIDER = 'gatehouse'

const userHome = (env: NodeJS.ProcessEnv) => env.HOME || homedir()
const claudeHome = (env: NodeJS.ProcessEnv) => env.CLAUDE_CONFIG_DIR || join(userHome(env), '.claude')
const codexHome = (env: NodeJS.ProcessEnv) => env.CODEX_HOME || join(userHome(env), '.codex')

export const TOOLS: Record<ConnectTool, ToolSpec> = {
  // Claude Code reads `env` of ~/.claude/settings.json (or $CLAUDE_CONFIG_DIR/settings.json) at every start; the
  // base URL is the root (it adds /v1/messages), the token goes out as `Authorization: Bearer`.
  'claude-code': {
    id: 'claude-code', name: 'Claude Code', program: 'claude', protocol: 'messages', home: claudeHome,
    files: (env, t) => [{
      path: join(claudeHome(env), 'settings.json'), format: jsonFormat,
      entries: [
        { key: ['env', 'ANTHROPIC_BASE_URL'], value: t.baseUrl },
        { key: ['env', 'ANTHROPIC_AUTH_TOKEN'], value: t.key, secret: true },
      ],
    }],
    usage: 'claude',
  },
  // Codex reads $CODEX_HOME/config.toml (default ~/.codex); a provider is a `[model_providers.<id>]` table (the
  // Responses API, `wire_api = "responses"`), and since Codex 0.134 a profile is its own file,
  // $CODEX_HOME/<name>.config.toml, laid over config.toml by `codex --profile <name>`.
  codex: {
    id: 'codex', name: 'Codex CLI', program: 'codex', protocol: 'chat', home: codexHome,
    files: (env, t) => [
      {
        path: join(codexHome(env), 'config.toml'), format: tomlFormat,
        entries: [
          { key: ['model_providers', CODEX_PROVIDER, 'name'], value: 'Gatehouse' },
          { key: ['model_providers', CODEX_PROVIDER, 'base_url'], value: `${t.baseUrl}/v1` },
          { key: ['model_providers', CODEX_PROVIDER, 'wire_api'], value: 'responses' },
          { key: ['model_providers', CODEX_PROVIDER, 'experimental_bearer_token'], value: t.key, secret: true },
        ],
      },
      {
        path: join(codexHome(env), `${CODEX_PROVIDER}.config.toml`), format: tomlFormat,
        entries: [
          { key: ['model_provider'], value: CODEX_PROVIDER },
          { key: ['model'], value: t.model },
        ],
      },
    ],
    usage: `codex --profile ${CODEX_PROVIDER}`,
  },
  // Gemini CLI calls Gemini's own generateContent API (GOOGLE_GEMINI_BASE_URL), which Gatehouse does not serve:
  // it is found and named, never written.
  'gemini-cli': {
    id: 'gemini-cli', name: 'Gemini CLI', program: 'gemini', protocol: null,
    home: (env) => join(userHome(env), '.gemini'),
    files: () => [],
    usage: 'gemini',
  },
}

/** The program's path when it is on PATH (an executable file), else null. */
export function findProgram(program: string, env: NodeJS.ProcessEnv): string | null {
  const names = process.platform === 'win32' ? [`${program}.cmd`, `${program}.exe`, program] : [program]
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean).slice(0, 200)) {
    for (const name of names) {
      const path = join(dir, name)
      try {
        if (statSync(path).isFile()) return path
      } catch {
        // not here
      }
    }
  }
  return null
}

export const homeExists = (spec: ToolSpec, env: NodeJS.ProcessEnv) => existsSync(spec.home(env))
