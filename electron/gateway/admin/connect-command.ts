import { ADMIN_COOKIE, ADMIN_SESSION_HEADER, SESSION_FRAGMENT } from '../../../shared/admin.js'
import { CONNECT_TOOLS, type ConnectResult } from '../../../shared/connect.js'
import { issueLoginCode } from './login-codes.js'
import { newReplicaId } from '../store/index.js'
import { openStore } from '../store/open-store.js'
import { runningGateway } from '../data-dir/running-record.js'

/** Why a connect command did nothing: a one-line message meant for the operator. */
export class ConnectCommandError extends Error {}

export const CONNECT_COMMANDS = ['connect', 'disconnect', 'undo'] as const
export type ConnectCommand = (typeof CONNECT_COMMANDS)[number]

export interface ConnectCommandOptions {
  command: ConnectCommand
  tool: string
  dryRun: boolean
  group?: string
  model?: string
  dataDir: string
  databaseUrl: string | undefined
  log: (line: string) => void
}

const TIMEOUT_MS = 30_000

/**
 * `npm run gateway -- connect|disconnect|undo TOOL [--dry-run]`: the same admin API the app's Connect tools panel
 * calls, on the gateway running on the data dir. It signs in as `--login` does (a one-time code written to that
 * gateway's store, spent at once for a session), makes its one call, and signs out. The answer is the gateway's.
 */
export async function runConnectCommand(opts: ConnectCommandOptions): Promise<ConnectResult> {
  if (!(CONNECT_TOOLS as readonly string[]).includes(opts.tool)) throw new ConnectCommandError(`unknown tool "${opts.tool}": one of ${CONNECT_TOOLS.join(', ')}`)
  const running = runningGateway(opts.dataDir)
  if (!running) throw new ConnectCommandError(`no gateway is running on the data dir ${opts.dataDir}: start it first (npm run gateway -- --data-dir ${opts.dataDir}), or name its data dir with --data-dir`)
  if (running.team !== (opts.databaseUrl !== undefined)) {
    throw new ConnectCommandError(running.team
      ? `the gateway on the data dir ${opts.dataDir} runs in team mode: give its database as the gateway has it (--database-url or GATEHOUSE_DATABASE_URL)`
      : `the gateway on the data dir ${opts.dataDir} runs on the data dir's own store: run without a database URL`)
  }
  const { store } = await openStore({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl, poolSize: 2, replica: newReplicaId(), log: opts.log })
  let code: string
  try {
    code = await issueLoginCode(store, running.loginCodeMinutes * 60_000)
  } finally {
    await store.close()
  }
  const signIn = await fetch(`${running.url}/admin/login?code=${encodeURIComponent(code)}`, { redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) })
  const token = new URLSearchParams((signIn.headers.get('location') ?? '').split('#')[1] ?? '').get(SESSION_FRAGMENT)
  const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith(`${ADMIN_COOKIE}=`))
  if (signIn.status !== 303 || !token || !cookie) throw new ConnectCommandError(`the gateway at ${running.url} did not sign this command in (HTTP ${signIn.status})`)
  const headers = { cookie, [ADMIN_SESSION_HEADER]: token }
  try {
    const path = opts.command === 'connect' ? `/admin/v1/connect/${opts.tool}` : `/admin/v1/connect/${opts.tool}/${opts.command}`
    const body = { ...(opts.dryRun ? { dryRun: true } : {}), ...(opts.command === 'connect' && opts.group ? { group: opts.group } : {}), ...(opts.command === 'connect' && opts.model ? { model: opts.model } : {}) }
    const answer = await fetch(`${running.url}${path}`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    const value = (await answer.json()) as ConnectResult & { error?: { message?: string } }
    if (!answer.ok) throw new ConnectCommandError(`${opts.command} ${opts.tool}: ${value.error?.message ?? `HTTP ${answer.status}`}`)
    return value
  } finally {
    await fetch(`${running.url}/admin/v1/session`, { method: 'DELETE', headers, signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(() => undefined)
  }
}

/** The answer for a terminal: each file's action and diff, then what to run. */
export function describeResult(result: ConnectResult, command: ConnectCommand): string {
  const lines: string[] = []
  const verb = result.dryRun ? 'would' : 'did'
  for (const c of result.changes) {
    lines.push(`${c.path}: ${c.action === 'none' ? 'unchanged' : `${verb} ${c.action}`}${c.backup ? ` (backup: ${c.backup})` : ''}`)
    if (c.diff) lines.push(c.diff.trimEnd())
  }
  if (result.dryRun) lines.push('Dry run: nothing was written.')
  else if (command === 'connect' && result.connection) lines.push(`Connected with a key of group "${result.connection.group}" (${result.connection.keyHint}). Run: ${result.usage}`)
  else lines.push(command === 'undo' ? 'Undone: the files are as they were before the connection; its key is revoked.' : 'Disconnected: Gatehouse\'s keys are out of the files; its key is revoked.')
  return lines.join('\n')
}
