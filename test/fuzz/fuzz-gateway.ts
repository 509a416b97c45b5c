import fc from 'fast-check'
import { startGateway, type RunningGateway } from '../../electron/gateway/gateway.js'
import { ROUTES } from '../../electron/gateway/routes/index.js'
import type { Catalog } from '../../electron/gateway/catalog/catalog.js'
import type { Route } from '../../electron/gateway/router.js'
import { imageModelSchema } from '../../electron/gateway/families/image-schemas.js'
import { startFakeAnthropic } from '../fakes/anthropic.js'
import { startFakeGemini } from '../fakes/gemini.js'
import { makePng } from '../fakes/images/image-bytes.js'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { startFakeDashScope } from '../fakes/video/dashscope.js'
import { TEST_KEY, tempDataDir } from '../helpers/gateway.js'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { expectHealthy, expectSlotsFree, expectSoundAnswer, fuzzParams, send, testTimeout, type Answer, type Protocol } from './harness.js'
import { anyBody, multipartBody, type FuzzBody } from './request-arbitrary.js'
import { schemaArbitrary, type Overrides, type Schema } from './schema-arbitrary.js'

export const MESSAGES_KEY = 'sk-fuzz-messages-0123456789'

/** The model each relayed endpoint is fuzzed with (served by a fake that answers well). */
const MODEL_OF: Record<string, string[]> = {
  'chat.completions': ['fuzz-gpt', 'fuzz-gemini'],
  responses: ['fuzz-gpt'],
  messages: ['fuzz-claude'],
  'messages.count_tokens': ['fuzz-claude'],
  'audio.speech': ['fuzz-tts'],
  interactions: ['fuzz-omni'],
  'images.generations': ['fuzz-image'],
  'images.edits': ['fuzz-image'],
  'video.generate': ['wan2.7-t2v', 'wan2.7-i2v'],
  'video.native': ['wan2.7-t2v', 'wan2.7-i2v'],
}
const ALL_MODELS = [...new Set(Object.values(MODEL_OF).flat())]

export interface FuzzTarget {
  route: Route
  path: string
  protocol: Protocol
  key: string
  /** the route's request schema: the fields the gateway publishes, whose types the wrong-type property checks */
  schema: Schema
  /** what valid bodies are generated from (see bodySchemaOf) */
  bodySchema: Schema
  overrides: Overrides
}

export interface FuzzGateway {
  gw: RunningGateway
  /** a small PNG with alpha, for files and references */
  png: Buffer
  /** every POST endpoint with a request schema, in ROUTES order; admin routes have their own file */
  targets: FuzzTarget[]
  stop(): Promise<void>
}

/** One gateway with a fake for every relayed family: OpenAI (chat, responses, speech), Anthropic, Gemini, images, DashScope. */
export async function startFuzzGateway(): Promise<FuzzGateway> {
  const [openai, anthropic, gemini, images, dashscope] = await Promise.all([
    startFakeOpenAI(), startFakeAnthropic(), startFakeGemini(), startFakeOpenAIImages(), startFakeDashScope(),
  ])
  const png = makePng(8, 8, { alpha: true })
  images.hosted.set('/files/reference.png', { bytes: png, mimeType: 'image/png' })
  const data = tempDataDir()
  const gw = await startGateway({
    dataDir: data.dir,
    port: 0,
    log: () => {},
    videoPoll: { intervalMs: 20, maxIntervalMs: 50, timeoutMs: 500 },
    config: {
      account: { balance: 1_000_000, concurrency: 5 },
      models: [
        { id: 'fuzz-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 } },
        { id: 'fuzz-tts', family: 'tts', vendor: 'openai', pricing: { unit: 'character', price: 15 } },
        { id: 'fuzz-image', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 } },
        { id: 'fuzz-claude', family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 3, output: 15 } },
        { id: 'fuzz-gemini', family: 'gemini', vendor: 'gemini', pricing: { unit: 'token', input: 1, output: 4 } },
        { id: 'fuzz-omni', family: 'gemini-interactions', vendor: 'gemini', pricing: { unit: 'token', input: 1, output: 4 } },
      ],
      upstreams: [
        { id: 'openai', vendor: 'openai', baseUrl: openai.url, apiKey: 'upstream-secret-openai', models: ['fuzz-gpt', 'fuzz-tts'] },
        { id: 'images', vendor: 'openai', baseUrl: images.url, apiKey: 'upstream-secret-images', models: ['fuzz-image'] },
        { id: 'anthropic', vendor: 'anthropic', baseUrl: anthropic.url, apiKey: 'upstream-secret-anthropic' },
        { id: 'gemini', vendor: 'gemini', baseUrl: gemini.url, apiKey: 'upstream-secret-gemini' },
        { id: 'dashscope', vendor: 'dashscope', baseUrl: dashscope.url, apiKey: 'sk-dashscope-test' },
      ],
      groups: [
        { id: 'main', protocol: 'chat', models: ALL_MODELS.filter((m) => m !== 'fuzz-claude'), upstreams: ['openai', 'images', 'gemini', 'dashscope'] },
        { id: 'claude', protocol: 'messages', models: ['fuzz-claude'], upstreams: ['anthropic'] },
      ],
      keys: [{ key: TEST_KEY, group: 'main' }, { key: MESSAGES_KEY, group: 'claude' }],
    },
  })
  // References the gateway may download: a Data URL, or a file on a local fake, never a random host.
  const reference = fc.constantFrom(`data:image/png;base64,${png.toString('base64')}`, `${images.origin}/files/reference.png`)
  const targets = ROUTES.filter((r) => r.method === 'POST' && r.auth === 'key' && r.doc.request).map((route) => ({
    route,
    path: route.path as string,
    protocol: route.protocol as Protocol,
    key: route.groupProtocol === 'messages' ? MESSAGES_KEY : TEST_KEY,
    schema: route.doc.request!.schema as Schema,
    bodySchema: bodySchemaOf(route, gw.services.registry.catalog),
    overrides: overridesFor(route.endpoint, gw.services.registry.catalog, reference),
  }))
  return {
    gw,
    png,
    targets,
    async stop() {
      await gw.close(1_000)
      data.remove()
      await Promise.all([openai.close(), anthropic.close(), gemini.close(), images.close(), dashscope.close()])
    },
  }
}

/**
 * What a body is generated from: the route's schema, or for images the per-model schemas that /spec/models/index.json
 * publishes (their value lists come from the catalog), so that valid bodies reach the fake upstream.
 */
function bodySchemaOf(route: Route, catalog: Catalog): Schema {
  const schema = route.doc.request!.schema as Schema
  if (!route.endpoint.startsWith('images.')) return schema
  const kind = route.endpoint === 'images.edits' ? 'edits' : 'generations'
  return { anyOf: MODEL_OF[route.endpoint].map((id) => imageModelSchema(catalog.get(id)!, kind)) }
}

/**
 * `model` mostly the endpoint's own (sometimes another endpoint's); every URL the gateway may fetch a safe
 * reference; video fields sometimes one of the catalog's values for the model, so submissions get through.
 */
function overridesFor(endpoint: string, catalog: Catalog, reference: fc.Arbitrary<string>): Overrides {
  const own = MODEL_OF[endpoint] ?? ALL_MODELS
  const model = fc.oneof({ arbitrary: fc.constantFrom(...own), weight: 9 }, { arbitrary: fc.constantFrom(...ALL_MODELS), weight: 1 })
  if (endpoint.startsWith('images.')) {
    const references = fc.oneof(reference, fc.array(reference, { minLength: 1, maxLength: 3 }))
    // The fake draws every image it returns: many large ones would spend the run's time in the fake.
    const fewImages = (derived: fc.Arbitrary<unknown>) => fc.oneof({ arbitrary: fc.constantFrom(1, 2, null, undefined), weight: 4 }, derived)
    return { model, n: fewImages, image: references, images: references, 'image[]': references, mask: reference }
  }
  if (!endpoint.startsWith('video.')) return { model }
  const listed = (field: string) => [...new Set(own.flatMap((id) => (catalog.get(id)?.[field] as unknown[] | undefined) ?? []))]
  const orAny = (values: unknown[], other: fc.Arbitrary<unknown>) => fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 3 }, other)
  // Each picture field picks a mode (i2v, first-last-frame, reference): send them rarely, so some bodies fit the model.
  const rarely = (derived: fc.Arbitrary<unknown>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, derived)
  const urls = ['url', 'first_frame', 'last_frame', 'img_url', 'first_frame_url', 'last_frame_url']
  return {
    model,
    ...Object.fromEntries(urls.map((field) => [field, field === 'url' ? reference : rarely(reference)])),
    images: rarely,
    media: rarely,
    reference_images: rarely(fc.array(reference, { maxLength: 3 })),
    resolution: orAny(listed('resolutions').flatMap((r) => [r, String(r).toUpperCase()]), fc.string({ maxLength: 6 })),
    duration: orAny(listed('durations'), fc.double({ min: -5, max: 100, noNaN: true })),
    aspect_ratio: orAny(listed('aspectRatios'), fc.string({ maxLength: 6 })),
    ratio: orAny(listed('aspectRatios'), fc.string({ maxLength: 6 })),
  }
}

/** The property every endpoint must hold: whatever body it is sent, its answer is sound (harness.ts). */
export function bodyProperty(gw: RunningGateway, target: FuzzTarget, bodies: fc.Arbitrary<FuzzBody>, headers: fc.Arbitrary<Record<string, string>> = fc.constant({})) {
  return fc.asyncProperty(bodies, headers, async (body, extra) => {
    const answer = await send(`${gw.url}${target.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json', ...extra },
      body: body.bytes,
    })
    const label = `${target.path} ${body.kind}: ${body.bytes.toString('utf8').slice(0, 300)}`
    expectSoundAnswer(answer, target.protocol, label)
    await expectSlotsFree(gw, label)
  })
}

const JSON_TYPES: Array<[string, unknown]> = [['string', 'yes'], ['integer', 7], ['number', 1.5], ['boolean', true], ['null', null], ['array', []], ['object', {}]]

/** The JSON types a field's schema allows (from type, const, enum and anyOf/oneOf branches); undefined when it allows any. */
function allowedTypes(schema: unknown): Set<string> | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined
  const s = schema as Record<string, unknown>
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v)
  if ('const' in s) return new Set([typeOf(s.const)])
  if (Array.isArray(s.enum)) return new Set(s.enum.map(typeOf))
  const branches = (s.anyOf ?? s.oneOf) as unknown[] | undefined
  if (branches) {
    const sets = branches.map(allowedTypes)
    return sets.some((t) => t === undefined) ? undefined : new Set(sets.flatMap((t) => [...t!]))
  }
  if (s.type === undefined) return undefined
  const types = new Set(Array.isArray(s.type) ? (s.type as string[]) : [s.type as string])
  if (types.has('number')) types.add('integer')
  return types
}

/** [field, wrong value] pairs: every top-level field whose schema restricts its type, with each type it refuses. */
export function wrongTypeCases(schema: Schema): Array<[string, unknown]> {
  const properties = (typeof schema === 'object' && (schema.properties as Record<string, unknown>)) || {}
  return Object.entries(properties).flatMap(([field, s]) => {
    const allowed = allowedTypes(s)
    return allowed ? JSON_TYPES.filter(([t]) => !allowed.has(t)).map(([, v]): [string, unknown] => [field, v]) : []
  })
}

/** Whether an answer is the 400 that names `field`, in the target's protocol. */
function namesField(answer: Answer, protocol: Protocol, field: string): boolean {
  if (answer.status !== 400) return false
  const body = JSON.parse(answer.text) as Record<string, any>
  if (protocol === 'chat') return body.error.code === 'invalid_request' && body.error.param === field
  const message = String(protocol === 'messages' ? body.error.message : body.message)
  return message.startsWith(`${field}:`) || message === `missing ${field} field`
}

/**
 * A field of the wrong type is a 400 naming it. When it is not, the body without the change must have failed
 * on its own (a generated body can break a rule no schema keyword states); that case is discarded.
 */
export function wrongTypeProperty(gw: RunningGateway, target: FuzzTarget) {
  const post = (body: unknown) => send(`${gw.url}${target.path}`, {
    method: 'POST', headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  })
  const cases = wrongTypeCases(target.schema)
  return fc.asyncProperty(schemaArbitrary(target.bodySchema, target.overrides), fc.constantFrom(...cases), async (base, [field, wrong]) => {
    const body = { ...(base as Record<string, unknown>), [field]: wrong }
    const answer = await post(body)
    expectSoundAnswer(answer, target.protocol, `${target.path} ${JSON.stringify(body).slice(0, 300)}`)
    if (namesField(answer, target.protocol, field)) return
    const alone = await post(base)
    fc.pre(alone.status < 400)
    throw new Error(`${field}: ${JSON.stringify(wrong)} answered ${answer.status} ${answer.text.slice(0, 300)}; without it: ${alone.status}`)
  })
}

/** The multipart form of a body property: the same soundness, for bodies SDKs send as multipart/form-data. */
export function multipartProperty(fz: FuzzGateway, target: FuzzTarget) {
  return fc.asyncProperty(multipartBody(target.bodySchema, target.overrides, fz.png), async (body) => {
    const answer = await send(`${fz.gw.url}${target.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.key}`, 'content-type': body.contentType },
      body: body.bytes,
    })
    const label = `${target.path} ${body.kind}: ${body.bytes.toString('latin1').slice(0, 300)}`
    expectSoundAnswer(answer, target.protocol, label)
    await expectSlotsFree(fz.gw, label)
  })
}

/** Runs of a multipart property: the edits endpoint reads the form (as many runs as a JSON body); the rest refuse it. */
const multipartRuns = (endpoint: string) => (endpoint === 'images.edits' ? 500 : 300)

/** Registers the fuzz properties of these endpoints (by ROUTES endpoint name) against one fuzz gateway per file. */
export function fuzzEndpoints(endpoints: string[]): void {
  let fz: FuzzGateway
  beforeAll(async () => {
    fz = await startFuzzGateway()
  })
  afterAll(() => fz.stop())
  const target = (endpoint: string) => fz.targets.find((t) => t.route.endpoint === endpoint)!
  describe.each(endpoints)('%s', (endpoint) => {
    it('answers any body soundly', async () => {
      const t = target(endpoint)
      await fc.assert(bodyProperty(fz.gw, t, anyBody(t.bodySchema, t.overrides)), fuzzParams())
      await expectHealthy(fz.gw, t.key)
    }, testTimeout())

    // Only the edits endpoint reads multipart/form-data; elsewhere the same bytes must be a clean 400.
    it('answers any multipart/form-data body soundly', async () => {
      const t = target(endpoint)
      await fc.assert(multipartProperty(fz, t), fuzzParams(multipartRuns(endpoint)))
      await expectHealthy(fz.gw, t.key)
    }, testTimeout(multipartRuns(endpoint)))

    it('answers a field of the wrong type with a 400 naming it', async () => {
      const t = target(endpoint)
      await fc.assert(wrongTypeProperty(fz.gw, t), fuzzParams())
      await expectHealthy(fz.gw, t.key)
    }, testTimeout())
  })
}
