import { describe, expect, it } from 'vitest'
import { parsePort } from '../../../../../renderer/panels/settings/settings-form'

describe('parsePort', () => {
  it.each([['8787', 8787], [' 1 ', 1], ['65535', 65535], ['0', undefined], ['65536', undefined], ['80.5', undefined], ['', undefined], ['-1', undefined], ['http', undefined]])(
    '%j → %s', (text, port) => expect(parsePort(text)).toBe(port),
  )
})
