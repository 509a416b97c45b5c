// An error no step turned into a GatewayError: a shared database that cannot be reached is the client's 503 to retry
// (team mode), anything else an opaque 500 — never a stack.
import { describe, expect, it } from 'vitest'
import { asGatewayError, GatewayError } from '../../../electron/gateway/errors.js'

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code })

describe('asGatewayError', () => {
  it.each([
    ['PostgreSQL: connection failure (class 08)', withCode('connection failure', '08006')],
    ['PostgreSQL: server shutting down', withCode('terminating connection due to administrator command', '57P01')],
    ['a refused socket', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a connection cut', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
  ])('%s: 503 shared_store_unavailable with a retry delay', (_, err) => {
    const error = asGatewayError(err, 'req-1')
    expect(error.status).toBe(503)
    expect(error.code).toBe('shared_store_unavailable')
    expect(error.message).toBe('The gateway could not reach its shared database; retry in a moment.')
    expect(error.headers).toMatchObject({ 'retry-after': '1', 'retry-after-ms': '1000' })
  })

  it('anything else: 500 internal_error, its message never the thrown one', () => {
    const error = asGatewayError(withCode('UNIQUE constraint failed: requests.id', 'SQLITE_CONSTRAINT'), 'req-2')
    expect(error.status).toBe(500)
    expect(error.code).toBe('internal_error')
    expect(error.message).not.toContain('UNIQUE')
  })

  it('a GatewayError stays as it is', () => {
    const original = new GatewayError('invalid_request', { id: 'internal_error', params: { requestId: 'x' } })
    expect(asGatewayError(original, 'req-3')).toBe(original)
  })
})
