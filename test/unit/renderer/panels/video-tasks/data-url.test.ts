import { describe, expect, it } from 'vitest'
import { dataUrlToBlob } from '../../../../../renderer/panels/video-tasks/data-url'

describe('dataUrlToBlob', () => {
  it('decodes base64 with its type', async () => {
    const blob = dataUrlToBlob('data:image/png;base64,iVBORw==')
    expect(blob.type).toBe('image/png')
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47])
  })

  it('reads percent-encoded data', async () => {
    const blob = dataUrlToBlob('data:text/plain,a%20b')
    expect(await blob.text()).toBe('a b')
  })
})
