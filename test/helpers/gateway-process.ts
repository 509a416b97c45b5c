import { runGateway, type GatewayProcess } from './spawn-gateway.js'

/** What the test's own environment must not lend a gateway process: each test gives exactly the ways it means. */
const TEAM_ENV = ['GATEHOUSE_DATABASE_URL', 'GATEHOUSE_DATABASE_PASSWORD_FILE', 'GATEHOUSE_SECRET_KEY', 'PGPASSFILE', 'PGPASSWORD'] as const

/** A headless gateway process with these arguments and, of the team-mode variables, exactly those in `env`. */
export function runGatewayWith(args: string[], env: Record<string, string>): GatewayProcess {
  const saved = TEAM_ENV.map((name) => [name, process.env[name]] as const)
  for (const name of TEAM_ENV) delete process.env[name]
  try {
    return runGateway(args, [], env)
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value
  }
}

/** Rejects after `ms` with `what` and the process's stderr; `clear` disarms it. */
function deadline(run: GatewayProcess, what: string, ms: number): { late: Promise<never>; clear(): void } {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms: ${run.stderr()}`)), ms)))
  return { late, clear: () => clearTimeout(timer) }
}

/** Its URL once it listens; a process that exits first, or takes longer than 15 s, fails the test with its stderr. */
export function listening(run: GatewayProcess): Promise<string> {
  const { late, clear } = deadline(run, 'not listening', 15_000)
  const exited = run.exited.then((code): never => {
    throw new Error(`exited with ${code}: ${run.stderr()}`)
  })
  return Promise.race([run.url, late, exited]).finally(clear)
}

/** A process meant to end by itself (`--login`): its exit code and everything it printed, within 15 s. */
export async function finished(run: GatewayProcess): Promise<{ code: number | null; stdout: string[]; stderr: string }> {
  const { late, clear } = deadline(run, 'not finished', 15_000)
  const code = await Promise.race([run.exited, late]).finally(clear)
  return { code, stdout: run.stdout, stderr: run.stderr() }
}
