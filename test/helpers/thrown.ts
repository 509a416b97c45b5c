import { expect } from 'vitest'
import { GatewayError } from '../../electron/gateway/errors.js'

/** The GatewayError `fn` throws (the test fails if it throws nothing or something else). */
export function thrownBy(fn: () => unknown): GatewayError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError)
    return err as GatewayError
  }
  throw new Error('expected a GatewayError')
}
