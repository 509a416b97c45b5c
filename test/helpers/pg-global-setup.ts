import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { TestProject } from 'vitest/node'
import { startPgCluster, type PgCluster } from './pg-cluster.js'

/**
 * One private PostgreSQL cluster per test run, started only when a test first asks for a database: the node
 * project's files run in worker processes, which reach this process through a small 127.0.0.1 server (its URL
 * is provided as `pgDatabases`); most runs never ask, and pay nothing.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let cluster: Promise<PgCluster> | undefined
  const token = randomBytes(16).toString('hex')
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== `/${token}/database`) return void res.writeHead(404).end()
    cluster ??= startPgCluster()
    cluster
      .then((c) => c.createDatabase())
      .then(
        (url) => res.writeHead(200, { 'content-type': 'text/plain' }).end(url),
        (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message),
      )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  project.provide('pgDatabases', `http://127.0.0.1:${port}/${token}`)
  return async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    if (cluster) await (await cluster.catch(() => undefined))?.stop()
  }
}
