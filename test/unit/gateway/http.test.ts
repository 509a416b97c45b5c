import { describe, expect, it } from 'vitest'
import { transportFailure } from '../../../electron/gateway/http.js'

describe('transportFailure', () => {
  it.each([
    [new DOMException('The operation was aborted due to timeout', 'TimeoutError'), 'timeout'],
    [new DOMException('This operation was aborted', 'AbortError'), 'aborted'],
    [Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'connect'],
    [Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), 'reset'],
  ])('%s → %s', (err, expected) => {
    expect(transportFailure(err)).toBe(expected)
  })
})
