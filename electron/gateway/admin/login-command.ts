import { issueLoginCode } from './login-codes.js'
import { newReplicaId } from '../store/index.js'
import { openStore } from '../store/open-store.js'
import { runningGateway } from '../data-dir/running-record.js'

/** Why `--login` printed no address: a one-line message meant for the operator. */
export class LoginCommandError extends Error {}

/**
 * `npm run gateway -- --login`: a new sign-in address of the gateway running on `dataDir`, its code written to that
 * gateway's store (the data dir's SQLite file, or the team's database at `databaseUrl`), where the gateway, or any
 * replica of its team, takes it. Starts no server.
 */
export async function newSignInAddress(dataDir: string, databaseUrl: string | undefined, log: (line: string) => void): Promise<{ address: string; minutes: number }> {
  const running = runningGateway(dataDir)
  if (!running) throw new LoginCommandError(`no gateway is running on the data dir ${dataDir}: start it first (npm run gateway -- --data-dir ${dataDir}), or name its data dir with --data-dir`)
  if (running.team && databaseUrl === undefined) {
    throw new LoginCommandError(`the gateway on the data dir ${dataDir} runs in team mode: give --login its database as the gateway has it (--database-url or GATEHOUSE_DATABASE_URL, and its password's way)`)
  }
  if (!running.team && databaseUrl !== undefined) {
    throw new LoginCommandError(`the gateway on the data dir ${dataDir} runs on the data dir's own store: run --login without a database URL`)
  }
  const { store } = await openStore({ dataDir, databaseUrl, poolSize: 2, replica: newReplicaId(), log })
  try {
    const code = await issueLoginCode(store, running.loginCodeMinutes * 60_000)
    return { address: `${running.url}/admin/login?code=${code}`, minutes: running.loginCodeMinutes }
  } finally {
    await store.close()
  }
}
