import { crc32, deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { isCallable, loadBuiltinModels } from '../../../../electron/gateway/catalog/catalog.js'
import { GatewayError } from '../../../../electron/gateway/errors.js'
import { dataUrlBytes } from '../../../../electron/gateway/formats/data-url.js'
import { dataUrlImageSize, readImageSize, TRUNCATED } from '../../../../electron/gateway/formats/image-dimensions.js'
import { PIECE_CHARS } from '../../../../electron/gateway/tokens/token-slices.js'
import { countQwenTokens, loadQwenTokenizer, qwenPromptSegments, utf8Bound } from '../../../../electron/gateway/families/qwen-tokens.js'
import type { MaybeAsyncChatRule } from '../../../../electron/gateway/contract/family.js'
import { qwenImageMinSize, qwenInputLength, qwenRules } from '../../../../electron/gateway/families/qwen.js'
import type { CatalogModel } from '../../../../shared/types.js'

type Obj = Record<string, any>

const models = loadBuiltinModels().filter((m) => m.family === 'qwen' && isCallable(m))
const textOnly = models.find((m) => Array.isArray(m.input) && m.input.length === 1 && m.input[0] === 'text')!
const vision = models.filter((m) => Array.isArray(m.input) && m.input.includes('image'))
const visionModel = vision[0]!
const capped = models.find((m) => m.limits?.maxInputTokens !== undefined)!

const synthetic = (over: Partial<CatalogModel>): CatalogModel =>
  ({
    id: 'qwen-synthetic', family: 'qwen', type: 'chat', vendor: 'dashscope', created: 0,
    pricing: { unit: 'token', input: 1, output: 1 }, input: ['text', 'image', 'video'], limits: { maxOutputTokens: 100 }, ...over,
  }) as CatalogModel

async function apply(rules: MaybeAsyncChatRule[], body: Obj, model: CatalogModel): Promise<Obj> {
  let out = body
  for (const rule of rules) out = await rule(out, model)
  return out
}
const chat = (extra: Obj = {}, messages: Obj[] = [{ role: 'user', content: 'hi' }]): Obj => ({ model: 'm', messages, ...extra })
const withImage = (url: string): Obj => chat({}, [{ role: 'user', content: [{ type: 'text', text: 'what is it?' }, { type: 'image_url', image_url: { url } }] }])

async function rejects(fn: () => unknown): Promise<GatewayError> {
  try {
    await fn()
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError)
    return err as GatewayError
  }
  throw new Error('expected a GatewayError')
}

function expect400(err: GatewayError, en: string, param: string) {
  expect(err.status).toBe(400)
  expect(err.code).toBe('invalid_request')
  expect(err.type).toBe('invalid_request_error')
  expect(err.localized('en')).toBe(en)
  expect(err.param).toBe(param)
  expect(err.localized('zh')).not.toBe(en)
}

// ---------------------------------------------------------------- tiny real images, written by hand

const u16le = (n: number) => { const b = Buffer.alloc(2); b.writeUInt16LE(n); return b }
const u16be = (n: number) => { const b = Buffer.alloc(2); b.writeUInt16BE(n); return b }
const u32le = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); return b }
const i32le = (n: number) => { const b = Buffer.alloc(4); b.writeInt32LE(n); return b }
const u32be = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n >>> 0); return b }
const u24le = (n: number) => Buffer.from([n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff])

/** Small images get their pixels; big ones only their header (the rules read nothing else). */
const SMALL = (w: number, h: number) => w * h <= 1_000_000

/** A complete PNG (RGB, 8 bit, all pixels grey), CRCs included; IHDR only when big. */
function png(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data])
    return Buffer.concat([u32be(data.length), td, u32be(crc32(td))])
  }
  const ihdr = Buffer.concat([u32be(w), u32be(h), Buffer.from([8, 2, 0, 0, 0])])
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  if (!SMALL(w, h)) return Buffer.concat([signature, chunk('IHDR', ihdr)])
  const raw = Buffer.alloc(h * (1 + 3 * w), 0x80)
  for (let y = 0; y < h; y++) raw[y * (1 + 3 * w)] = 0 // filter type None
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))])
}

/** A JPEG header: SOI, JFIF APP0, an optional APPn padding segment (EXIF-like), then SOF (baseline or progressive), EOI. */
function jpeg(w: number, h: number, opts: { padding?: number; sof?: number } = {}): Buffer {
  const seg = (marker: number, data: Buffer) => Buffer.concat([Buffer.from([0xff, marker]), u16be(data.length + 2), data])
  const parts = [Buffer.from([0xff, 0xd8]), seg(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'))]
  let left = opts.padding ?? 0
  while (left > 0) {
    const size = Math.min(left, 65000)
    parts.push(seg(0xe1, Buffer.alloc(size, 0x41)))
    left -= size
  }
  parts.push(seg(0xdb, Buffer.alloc(65, 1))) // a quantization table before the frame
  parts.push(seg(opts.sof ?? 0xc0, Buffer.concat([Buffer.from([8]), u16be(h), u16be(w), Buffer.from([1, 1, 0x11, 0])])))
  parts.push(Buffer.from([0xff, 0xd9]))
  return Buffer.concat(parts)
}

function gif(w: number, h: number): Buffer {
  return Buffer.concat([Buffer.from('GIF89a', 'latin1'), u16le(w), u16le(h), Buffer.from([0, 0, 0]), Buffer.from([0x3b])])
}

const riff = (chunk: string, data: Buffer) =>
  Buffer.concat([Buffer.from('RIFF', 'latin1'), u32le(4 + 8 + data.length), Buffer.from('WEBP', 'latin1'), Buffer.from(chunk, 'latin1'), u32le(data.length), data])
/** Lossy WebP: frame tag, start code 9d 01 2a, 14-bit sizes. */
const webpVp8 = (w: number, h: number) => riff('VP8 ', Buffer.concat([Buffer.from([0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a]), u16le(w), u16le(h), Buffer.alloc(8)]))
/** Lossless WebP: signature 0x2f, then width-1 and height-1 packed in 14 bits each. */
const webpVp8l = (w: number, h: number) => riff('VP8L', Buffer.concat([Buffer.from([0x2f]), u32le(((w - 1) & 0x3fff) | (((h - 1) & 0x3fff) << 14)), Buffer.alloc(4)]))
/** Extended WebP: flags, 3 reserved bytes, 24-bit canvas width-1 and height-1. */
const webpVp8x = (w: number, h: number) => riff('VP8X', Buffer.concat([Buffer.from([0x10, 0, 0, 0]), u24le(w - 1), u24le(h - 1)]))

/** BMP with a BITMAPINFOHEADER (40 bytes); `topDown` stores a negative height. */
function bmp(w: number, h: number, topDown = false): Buffer {
  const rowBytes = Math.ceil((w * 3) / 4) * 4
  const pixels = Buffer.alloc(SMALL(w, h) ? rowBytes * h : 0)
  const dib = Buffer.concat([u32le(40), i32le(w), i32le(topDown ? -h : h), u16le(1), u16le(24), u32le(0), u32le(pixels.length), Buffer.alloc(16)])
  return Buffer.concat([Buffer.from('BM', 'latin1'), u32le(14 + 40 + pixels.length), u32le(0), u32le(54), dib, pixels])
}
/** BMP with the old 12-byte BITMAPCOREHEADER (uint16 sizes). */
const bmpCore = (w: number, h: number) =>
  Buffer.concat([Buffer.from('BM', 'latin1'), u32le(26), u32le(0), u32le(26), u32le(12), u16le(w), u16le(h), u16le(1), u16le(24)])

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`

const FORMATS: Array<[string, string, (w: number, h: number) => Buffer]> = [
  ['png', 'image/png', png],
  ['jpeg', 'image/jpeg', (w, h) => jpeg(w, h)],
  ['jpeg (progressive SOF2)', 'image/jpeg', (w, h) => jpeg(w, h, { sof: 0xc2 })],
  ['jpeg (70 KB of EXIF before the frame)', 'image/jpeg', (w, h) => jpeg(w, h, { padding: 70_000 })],
  ['gif', 'image/gif', gif],
  ['webp VP8', 'image/webp', webpVp8],
  ['webp VP8L', 'image/webp', webpVp8l],
  ['webp VP8X', 'image/webp', webpVp8x],
  ['bmp', 'image/bmp', (w, h) => bmp(w, h)],
  ['bmp (top-down)', 'image/bmp', (w, h) => bmp(w, h, true)],
  ['bmp (core header)', 'image/bmp', bmpCore],
]

// ---------------------------------------------------------------- catalog

describe('the catalog holds what the Qwen rules read', () => {
  it('has a text-only model, vision models and one input cap', () => {
    expect(textOnly).toBeDefined()
    expect(vision.length).toBeGreaterThan(0)
    expect(capped.limits!.maxInputTokens).toBe(991808)
    for (const m of models) expect(m.limits?.maxOutputTokens).toBe(131072)
  })
})

// ---------------------------------------------------------------- image header parsing

describe('readImageSize reads the header of every supported format', () => {
  const sizes: Array<[number, number]> = [[1, 1], [10, 10], [11, 10], [300, 200], [4000, 3000], [16383, 16383]]
  const cases = FORMATS.flatMap(([name, , make]) => sizes.map(([w, h]) => [name, w, h, make] as const))
  it.each(cases)('%s %ix%i', (name, w, h, make) => {
    const size = readImageSize(make(w, h))
    expect(size).toMatchObject({ width: w, height: h, format: name.split(' ')[0] })
  })
  it('large sizes beyond 14 bits: PNG, JPEG, GIF, BMP and VP8X', () => {
    expect(readImageSize(png(70000, 1).subarray(0, 33))).toMatchObject({ width: 70000, height: 1 })
    expect(readImageSize(jpeg(65535, 20000))).toMatchObject({ width: 65535, height: 20000 })
    expect(readImageSize(gif(65535, 2))).toMatchObject({ width: 65535, height: 2 })
    expect(readImageSize(webpVp8x(16777216, 20000))).toMatchObject({ width: 16777216, height: 20000 })
  })
  it('a cut header says truncated; unknown formats say undefined', () => {
    expect(readImageSize(png(20, 20).subarray(0, 20))).toBe(TRUNCATED)
    expect(readImageSize(jpeg(20, 20, { padding: 1000 }).subarray(0, 500))).toBe(TRUNCATED)
    expect(readImageSize(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="5" height="5"/>'))).toBeUndefined()
    expect(readImageSize(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeUndefined() // JPEG with no frame
    expect(readImageSize(Buffer.from('GIF8'))).toBe(TRUNCATED)
  })
  it('decodes data URLs (base64 prefix only, or percent-encoded)', () => {
    const url = dataUrl('image/png', png(12, 34))
    expect(dataUrlImageSize(url)).toMatchObject({ width: 12, height: 34 })
    expect(dataUrlBytes(url, 8)).toMatchObject({ complete: false })
    expect(dataUrlBytes(url, 8)!.bytes.length).toBeLessThanOrEqual(9)
    const percent = 'data:image/gif,' + [...gif(5, 7)].map((b) => '%' + b.toString(16).padStart(2, '0')).join('')
    expect(dataUrlImageSize(percent)).toMatchObject({ width: 5, height: 7 })
    expect(dataUrlImageSize('https://example.com/a.png')).toBeUndefined()
    expect(dataUrlImageSize('DATA:image/png;BASE64,' + png(3, 4).toString('base64'))).toMatchObject({ width: 3, height: 4 })
    // the MIME type is not trusted: the bytes decide
    expect(dataUrlImageSize(dataUrl('image/jpeg', png(8, 9)))).toMatchObject({ format: 'png', width: 8, height: 9 })
  })
})

// ---------------------------------------------------------------- rules

describe('qwen: image width and height must exceed 10 px', () => {
  const sizes: Array<[number, number, boolean]> = [[11, 11, true], [500, 11, true], [10, 10, false], [11, 10, false], [10, 11, false], [1, 1, false], [1000, 3, false]]
  const cases = FORMATS.flatMap(([name, mime, make]) => sizes.map(([w, h, ok]) => [name, w, h, ok, mime, make] as const))
  it.each(cases)('%s %ix%i passes: %s', async (_, w, h, ok, mime, make) => {
    const body = withImage(dataUrl(mime, make(w, h)))
    if (ok) return expect(await apply(qwenRules, body, visionModel)).toEqual(body)
    const err = await rejects(() => apply(qwenRules, body, visionModel))
    expect400(
      err,
      `The image length and width do not meet the model restrictions. [height:${h} or width:${w} must be larger than 10]`,
      'messages[0].content[1].image_url.url',
    )
  })
  it.each(vision.map((m) => m.id))('applies to every vision model in the catalog: %s', async (id) => {
    const model = vision.find((m) => m.id === id)!
    await expect(apply(qwenRules, withImage(dataUrl('image/png', png(10, 40))), model)).rejects.toBeInstanceOf(GatewayError)
  })
  it.each<[string, string]>([
    ['an https link (not fetched: the upstream checks it)', 'https://example.com/tiny-1x1.png'],
    ['an http link', 'http://example.com/tiny.png'],
    ['an SVG data URL (format not read)', 'data:image/svg+xml;utf8,<svg width="1" height="1"/>'],
    ['a corrupt base64 payload', 'data:image/png;base64,AAAA'],
  ])('%s is forwarded unchecked', async (_, url) => {
    expect(await apply(qwenRules, withImage(url), visionModel)).toEqual(withImage(url))
  })
  it('the later bad image of several is reported with its path', async () => {
    const body = chat({}, [
      { role: 'user', content: [{ type: 'image_url', image_url: { url: dataUrl('image/png', png(64, 64)) } }] },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [{ type: 'text', text: 'and this' }, { type: 'text', text: '?' }, { type: 'image_url', image_url: { url: dataUrl('image/gif', gif(64, 9)) } }] },
    ])
    expect((await rejects(() => apply(qwenRules, body, visionModel))).param).toBe('messages[2].content[2].image_url.url')
  })
  it('a bare-string image_url (lenient clients) is checked too', () => {
    const body = chat({}, [{ role: 'user', content: [{ type: 'image_url', image_url: dataUrl('image/png', png(2, 2)) }] }])
    expect(() => qwenImageMinSize(body, visionModel)).toThrow(GatewayError)
  })
})

describe('qwen: the text-only model rejects images and video', () => {
  const parts: Array<[string, Obj]> = [
    ['image_url', { type: 'image_url', image_url: { url: dataUrl('image/png', png(64, 64)) } }],
    ['video_url', { type: 'video_url', video_url: { url: 'https://example.com/v.mp4' } }],
    ['video', { type: 'video', video: ['https://example.com/f1.jpg', 'https://example.com/f2.jpg'] }],
  ]
  it.each(parts)('a %s part answers 400 on the text-only model', async (type, part) => {
    const body = chat({}, [{ role: 'user', content: [{ type: 'text', text: 'see' }, part] }])
    const err = await rejects(() => apply(qwenRules, body, textOnly))
    expect400(err, `The model \`${textOnly.id}\` does not accept \`${type}\` content parts; it reads only: text.`, 'messages[0].content[1].type')
  })
  it.each(parts)('a %s part passes on a vision model', async (_, part) => {
    const body = chat({}, [{ role: 'user', content: [{ type: 'text', text: 'see' }, part] }])
    expect(await apply(qwenRules, body, visionModel)).toEqual(body)
  })
  it('text passes; unknown part types (input_audio on omni models) are left to the upstream', async () => {
    const body = chat({}, [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'input_audio', input_audio: { data: 'AA', format: 'wav' } }] }])
    expect(await apply(qwenRules, body, textOnly)).toEqual(body)
  })
})

describe('qwen: max_tokens maximum from limits.maxOutputTokens', () => {
  const cases = models.flatMap((m) => {
    const max = m.limits!.maxOutputTokens!
    return ['max_tokens', 'max_completion_tokens'].flatMap((field) => [
      [m.id, field, 1, true], [m.id, field, max, true], [m.id, field, max + 1, false], [m.id, field, 0, false],
    ] as Array<[string, string, number, boolean]>)
  })
  it.each(cases)('%s %s = %i passes: %s', async (id, field, value, ok) => {
    const model = models.find((m) => m.id === id)!
    const body = chat({ [field]: value })
    if (ok) return expect(await apply(qwenRules, body, model)).toEqual(body)
    const err = await rejects(() => apply(qwenRules, body, model))
    expect400(err, `Range of ${field} should be [1, ${model.limits!.maxOutputTokens}]`, field)
  })
  it('the bound is the model’s (synthetic limit 100); no limit, no check', async () => {
    expect((await rejects(() => apply(qwenRules, chat({ max_tokens: 101 }), synthetic({})))).localized('en')).toBe('Range of max_tokens should be [1, 100]')
    expect(await apply(qwenRules, chat({ max_tokens: 10 ** 7 }), synthetic({ limits: {} }))).toEqual(chat({ max_tokens: 10 ** 7 }))
  })
})

describe('qwen: input cap from limits.maxInputTokens (Qwen tokenizer)', () => {
  it('the tokenizer is Qwen’s own vocabulary', async () => {
    const tokenizer = await loadQwenTokenizer()
    expect(tokenizer.encode('Hello world', { add_special_tokens: false })).toEqual([9707, 1879])
    expect(tokenizer.encode('你好，世界', { add_special_tokens: false })).toEqual([108386, 3837, 99489])
    expect(tokenizer.encode('<|im_start|>user\nhi<|im_end|>\n', { add_special_tokens: false })).toEqual([151644, 872, 198, 6023, 151645, 198])
  })

  it('renders the chat template: one segment per message, tools first, generation prompt last', () => {
    const body = chat({ tools: [{ type: 'function', function: { name: 'f' } }] }, [
      { role: 'system', content: 's' },
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image_url', image_url: { url: 'https://x' } }, { type: 'text', text: 'b' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }] },
      { role: 'tool', tool_call_id: 'c', content: 'r' },
    ])
    const segments = qwenPromptSegments(body)
    expect(segments).toHaveLength(6)
    expect(segments[0]).toContain('<tools>\n{"type":"function","function":{"name":"f"}}\n</tools>')
    expect(segments.slice(1)).toEqual([
      '<|im_start|>system\ns<|im_end|>\n',
      '<|im_start|>user\nab<|im_end|>\n',
      '<|im_start|>assistant\n\n<tool_call>\n{"name": "f", "arguments": {"x":1}}\n</tool_call><|im_end|>\n',
      '<|im_start|>user\n<tool_response>\nr\n</tool_response><|im_end|>\n',
      '<|im_start|>assistant\n',
    ])
  })

  it('small requests are answered synchronously, without loading the tokenizer', () => {
    const body = chat({}, [{ role: 'user', content: 'x'.repeat(100_000) }])
    const out = qwenInputLength(body, capped)
    expect(out).toBe(body)
    expect(out).not.toBeInstanceOf(Promise)
    expect(utf8Bound(qwenPromptSegments(body))).toBeLessThan(capped.limits!.maxInputTokens!)
  })

  it('models without the cap are never counted', () => {
    const body = chat({}, [{ role: 'user', content: '9'.repeat(2_000_000) }])
    expect(qwenInputLength(body, visionModel)).toBe(body)
  })

  // Synthetic cap: exact boundary with text whose Qwen tokens are known (each digit is one token).
  const overhead = async (messages: Obj[]) => countQwenTokens(qwenPromptSegments(chat({}, messages)))
  it.each<[string, number, boolean]>([['cap - 1', -1, true], ['cap', 0, true], ['cap + 1', 1, false], ['cap + 50', 50, false]])(
    'synthetic cap 200, prompt at %s tokens (%i) passes: %s',
    async (_, delta, ok) => {
      const model = synthetic({ limits: { maxOutputTokens: 100, maxInputTokens: 200 } })
      const fixed = await overhead([{ role: 'system', content: 'You are terse.' }, { role: 'user', content: '' }])
      const messages = [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: '7'.repeat(200 - fixed + delta) }]
      expect(await countQwenTokens(qwenPromptSegments(chat({}, messages)))).toBe(200 + delta)
      const body = chat({}, messages)
      if (ok) return expect(await apply(qwenRules, body, model)).toBe(body)
      expect400(await rejects(() => apply(qwenRules, body, model)), 'Range of input length should be [1, 200]', 'messages')
    },
  )

  it('bytes over the cap but tokens under it pass (the count, not the size, decides)', async () => {
    const model = synthetic({ limits: { maxInputTokens: 100 } })
    const body = chat({}, [{ role: 'user', content: 'hello '.repeat(60) }]) // ~360 bytes, ~65 tokens
    expect(utf8Bound(qwenPromptSegments(body))).toBeGreaterThan(100)
    expect(await qwenInputLength(body, model)).toBe(body)
  })

  it('Chinese text: tokens are counted, not characters', async () => {
    const model = synthetic({ limits: { maxInputTokens: 50 } })
    const text = '人工智能正在改变世界。'.repeat(12) // 132 characters, 396 bytes
    const tokens = await countQwenTokens(qwenPromptSegments(chat({}, [{ role: 'user', content: text }])))
    expect(tokens).toBeGreaterThan(50)
    expect(tokens).toBeLessThan(text.length)
    expect((await rejects(() => qwenInputLength(chat({}, [{ role: 'user', content: text }]), model))).localized('zh')).toBe('输入长度的范围应为 [1, 50]')
  })

  it.each<[string, string, number]>([
    // Prose and code are cut only where Qwen's pre-tokenizer cuts anyway: the count is exact.
    ['lines', 'The quick brown fox jumps over the lazy dog; 人工智能 42.\n'.repeat(2000), 0],
    ['one long line of words', 'word '.repeat(20_000), 0],
    ['blank lines and indentation', '\n\n  x'.repeat(20_000), 0],
    ['minified JSON', JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `item${i}`, tags: ['a', 'b'] }))), 0],
    // A run without any break is cut anywhere: about a token per cut (a cut every PIECE_CHARS / 2 at most).
    ['Chinese without spaces or punctuation', '人工智能正在改变世界'.repeat(5_000), Math.ceil(50_000 / (PIECE_CHARS / 2))],
  ])('long texts (%s) counted in pieces agree with the whole text’s count (exactly, unless cut inside a run)', async (_, text, tolerance) => {
    expect(text.length).toBeGreaterThan(100 * PIECE_CHARS)
    const tokenizer = await loadQwenTokenizer()
    const whole = tokenizer.encode(text, { add_special_tokens: false }).length
    const pieced = await countQwenTokens([text])
    expect(Math.abs(pieced - whole)).toBeLessThanOrEqual(tolerance)
  })

  it('stops counting once over the cap', async () => {
    const counted = await countQwenTokens(['1'.repeat(300_000)], 1000)
    expect(counted).toBeGreaterThan(1000)
    expect(counted).toBeLessThan(300_000)
  })

  it(`the catalog model's cap: exactly at it passes, one token over answers 400 "Range of input length should be [1, 991808]"`, async () => {
    const max = capped.limits!.maxInputTokens!
    const fixed = await overhead([{ role: 'user', content: '' }])
    const atCap = chat({}, [{ role: 'user', content: '3'.repeat(max - fixed) }])
    expect(await apply(qwenRules, atCap, capped)).toBe(atCap)
    const over = chat({}, [{ role: 'user', content: '3'.repeat(max - fixed + 1) }])
    const err = await rejects(() => apply(qwenRules, over, capped))
    expect400(err, 'Range of input length should be [1, 991808]', 'messages')
  }, 60_000)
})
