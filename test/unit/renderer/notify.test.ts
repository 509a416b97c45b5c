import { describe, expect, it } from 'vitest'
import { LONG_TASK_MS, shouldNotify } from '../../../renderer/notify'

describe('shouldNotify', () => {
  it('only for a long task that ended while the window was hidden, with permission', () => {
    expect(shouldNotify(LONG_TASK_MS, true, 'granted')).toBe(true)
    expect(shouldNotify(LONG_TASK_MS - 1, true, 'granted')).toBe(false)
    expect(shouldNotify(60_000, false, 'granted')).toBe(false)
    expect(shouldNotify(60_000, true, 'default')).toBe(false)
    expect(shouldNotify(60_000, true, 'denied')).toBe(false)
    expect(shouldNotify(60_000, true, undefined)).toBe(false)
  })
})
