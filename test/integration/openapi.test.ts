import Ajv2020 from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { chatCompletionRequest } from '../../shared/schemas/chat.js'
import { ROUTES } from '../../electron/gateway/routes/index.js'
import { fakeOpenAIChat, withGateway } from '../helpers/gateway.js'

const { gw } = withGateway(fakeOpenAIChat())

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with the interface version, 2020-12 dialect and one bearer scheme on every operation', async () => {
    const res = await fetch(`${gw.url}/openapi.json`)
    expect(res.status).toBe(200)
    const doc = (await res.json()) as {
      openapi: string; info: { version: string }; jsonSchemaDialect: string; security: unknown[]
      components: { securitySchemes: Record<string, { type: string; scheme: string }> }
      paths: Record<string, Record<string, { security?: unknown[]; requestBody?: { content: Record<string, { schema: unknown }> } }>>
    }
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.version).toBe('2026-09-25')
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(Object.values(doc.components.securitySchemes)).toEqual([{ type: 'http', scheme: 'bearer', description: expect.any(String) }])
    expect(doc.security).toEqual([{ bearerAuth: [] }])
    // Every route exists in the document, with the request schema that validates it.
    for (const route of ROUTES) {
      const path = route.docPath ?? String(route.path)
      expect(doc.paths[path]?.[route.method.toLowerCase()], `${route.method} ${path}`).toBeDefined()
    }
    expect(doc.paths['/v1/chat/completions'].post.requestBody!.content['application/json'].schema).toEqual(JSON.parse(JSON.stringify(chatCompletionRequest)))
  })

  it('its schemas compile as JSON Schema 2020-12', async () => {
    const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: object }> } }>> }
    const ajv = new Ajv2020.default({ strict: false })
    for (const ops of Object.values(doc.paths)) for (const op of Object.values(ops)) for (const media of Object.values(op.requestBody?.content ?? {})) expect(() => ajv.compile(media.schema)).not.toThrow()
  })
})

describe('GET /api/v1/models/pricing', () => {
  it('lists the catalog list prices without a key', async () => {
    const res = await fetch(`${gw.url}/api/v1/models/pricing`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { object: string; currency: string; data: Array<{ model: string; pricing: { unit: string } }> }
    expect(body.currency).toBe('USD')
    const entry = body.data.find((m) => m.model === 'test-gpt')
    expect(entry?.pricing).toEqual({ unit: 'token', input: 2, output: 8 })
    const catalog = gw.services.registry.catalog.all().filter((m) => !m.retired)
    expect(body.data).toHaveLength(catalog.length)
    expect(new Set(body.data.map((m) => m.pricing.unit))).toEqual(new Set(['token', 'image', 'second', 'character']))
  })

  it('tells what a video model accepts, from its catalog entry', async () => {
    const body = (await (await fetch(`${gw.url}/api/v1/models/pricing`)).json()) as { data: Array<Record<string, unknown>> }
    const kling = body.data.find((m) => m.model === 'kling-v2-5-turbo')!
    const catalog = gw.services.registry.catalog.get('kling-v2-5-turbo')!
    expect(kling).toMatchObject({ durations: catalog.durations, aspectRatios: catalog.aspectRatios, resolutions: catalog.resolutions })
    expect(body.data.find((m) => m.model === 'test-gpt')).not.toHaveProperty('durations')
  })
})
