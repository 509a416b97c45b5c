/** Shared fixtures of the image-rule tests: catalog models by id, the options and the 400 assertion. */
import { expect } from 'vitest'
import { loadBuiltinModels } from '../../../../electron/gateway/catalog/catalog.js'
import { checkImageRequest } from '../../../../electron/gateway/images/image-rules.js'
import type { ImageCheckOptions, NormalizedImageRequest } from '../../../../electron/gateway/contract/image-request.js'
import type { CatalogModel } from '../../../../shared/types.js'
import { thrownBy } from '../../../helpers/thrown.js'

export type Obj = Record<string, any>

export const catalog = loadBuiltinModels()

export function model(id: string): CatalogModel {
  const found = catalog.find((m) => m.id === id)
  if (!found) throw new Error(`no catalog model ${id}`)
  return found
}

export const GEN: ImageCheckOptions = { endpoint: 'generations', async: false }
export const EDITS: ImageCheckOptions = { endpoint: 'edits', async: false }

export const check = (id: string, body: Obj, opts: Partial<ImageCheckOptions> = {}): NormalizedImageRequest =>
  checkImageRequest({ model: id, ...body }, model(id), { ...GEN, ...opts })


/** Asserts a 400 invalid_request with the exact English message and param (and a distinct Chinese one). */
export function expect400(fn: () => unknown, en: string, param: string): void {
  const err = thrownBy(fn)
  expect(err.status).toBe(400)
  expect(err.code).toBe('invalid_request')
  expect(err.type).toBe('invalid_request_error')
  expect(err.localized('en')).toBe(en)
  expect(err.param).toBe(param)
  expect(err.localized('zh')).not.toBe(en)
}

export const dataUrl = (payloadChars: number, prefix = 'data:image/png;base64,'): string => prefix + 'A'.repeat(payloadChars)
export const urls = (count: number): string[] => Array.from({ length: count }, (_, i) => `https://example.com/${i}.png`)

/**
 * Boundary examples shared by the rule tests and the schema test (one source of truth): the body
 * fields beyond model/prompt, and whether the request is accepted.
 */
export const GPT_SIZE_CASES: Array<[string, unknown, boolean]> = [
  ['auto', 'auto', true],
  ['largest side 3840 with ratio exactly 3:1', '3840x1280', true],
  ['a side of 3856', '3856x1296', false],
  ['exactly 655360 pixels', '1024x640', true],
  ['one step below 655360 pixels', '1024x624', false],
  ['exactly 8294400 pixels', '3840x2160', true],
  ['one step above 8294400 pixels', '3840x2176', false],
  ['ratio exactly 3:1', '2304x768', true],
  ['ratio just over 3:1', '2320x768', false],
  ['ratio exactly 1:3', '768x2304', true],
  ['ratio just over 1:3', '768x2320', false],
  ['a side not a multiple of 16', '1032x1024', false],
  ['free syntax', 'big', false],
  ['upper-case X', '1024X1024', false],
  ['a number', 1024, false],
]

export const SEEDREAM_SIZE_CASES: Array<[string, string, unknown, boolean]> = [
  ['5.5 tier 1.5K', 'doubao-seedream-5-5-261028', '1.5K', true],
  ['5.5 tier 4K (not listed)', 'doubao-seedream-5-5-261028', '4K', false],
  ['5.5 exactly minPixels', 'doubao-seedream-5-5-261028', '960x960', true],
  ['5.5 one pixel below minPixels', 'doubao-seedream-5-5-261028', '959x961', false],
  ['5.5 exactly maxPixels', 'doubao-seedream-5-5-261028', '1634x2830', true],
  ['5.5 above maxPixels', 'doubao-seedream-5-5-261028', '1634x2831', false],
  ['4.5 exactly minPixels', 'doubao-seedream-4-5-251128', '1920x1920', true],
  ['4.5 below minPixels', 'doubao-seedream-4-5-251128', '1920x1919', false],
  ['4.5 exactly maxPixels', 'doubao-seedream-4-5-251128', '4096x4096', true],
  ['4.5 above maxPixels', 'doubao-seedream-4-5-251128', '4096x4097', false],
  ['4.5 ratio exactly 16:1', 'doubao-seedream-4-5-251128', '7680x480', true],
  ['4.5 ratio over 16:1', 'doubao-seedream-4-5-251128', '7681x480', false],
  ['4.5 ratio exactly 1:16', 'doubao-seedream-4-5-251128', '480x7680', true],
  ['4.5 ratio over 1:16', 'doubao-seedream-4-5-251128', '480x7681', false],
  ['5.0 tier 3K', 'doubao-seedream-5-0-260128', '3K', true],
  ['null', 'doubao-seedream-5-0-260128', null, false],
  ['auto (not a Seedream value)', 'doubao-seedream-5-0-260128', 'auto', false],
]
