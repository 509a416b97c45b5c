// Kling image generation: a task at the vendor, signed with a JWT from the account's ACCESS_KEY:SECRET_KEY
// (docs/vendors/kling.md "Images").
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { klingImages } from '../../../../../electron/gateway/upstreams/images/kling-images.js'
import type { UpstreamCtx } from '../../../../../electron/gateway/contract/upstream.js'
import { account, catalogRow, thrownBy } from '../adapter-kit.js'
import { imageJob } from './image-job.js'

const ctx: UpstreamCtx = { upstream: account('kling', 'https://api-singapore.klingai.com/v1', 'AK-test:SK-test'), model: catalogRow('kling-v2-1-image', 'kling-image', 'kling') }
const task = klingImages.task!

/** The JWT of an Authorization header, checked against the secret key; its payload. */
function jwtPayload(authorization: string | undefined): { iss: string; exp: number; nbf: number } {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? ''
  const [header, payload, signature] = token.split('.')
  expect(createHmac('sha256', 'SK-test').update(`${header}.${payload}`).digest('base64url')).toBe(signature)
  return JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { iss: string; exp: number; nbf: number }
}

describe('creating the task', () => {
  it('POSTs /v1/images/generations (the base URL with or without /v1) with a fresh JWT; a data URL reference goes as raw base64', () => {
    const job = imageJob({ family: 'kling-image', n: 2, aspectRatio: '1:1', resolution: '2k', references: ['data:image/png;base64,iVBORw0KGgo='], referenceCount: 1 })
    const [spec] = klingImages.toRequests(job, ctx)
    expect(spec).toMatchObject({ method: 'POST', url: 'https://api-singapore.klingai.com/v1/images/generations', headers: { 'content-type': 'application/json' } })
    const claims = jwtPayload(spec!.headers.authorization)
    expect(claims.iss).toBe('AK-test')
    expect(claims.exp - claims.nbf).toBe(1805)
    expect(JSON.parse(spec!.body as string)).toEqual({ model_name: 'kling-v2-1-image', prompt: 'a red fox in the snow', n: 2, aspect_ratio: '1:1', resolution: '2k', image: 'iVBORw0KGgo=' })
    const bare = { ...ctx, upstream: { ...ctx.upstream, baseUrl: 'https://api-singapore.klingai.com' } }
    expect(klingImages.toRequests(imageJob({ references: ['https://example.com/a.png'], referenceCount: 1 }), bare)[0]!.url).toBe('https://api-singapore.klingai.com/v1/images/generations')
  })

  it("the create answer's task id; an envelope with a non-zero code is the vendor's error even inside HTTP 200", () => {
    expect(task.fromCreate('{"code":0,"message":"SUCCEED","request_id":"r-1","data":{"task_id":"T-123","task_status":"submitted"}}')).toBe('T-123')
    expect(thrownBy(() => task.fromCreate('{"code":1102,"message":"Account balance not enough","request_id":"r-2"}'))).toMatchObject({ code: '1102', message: 'Account balance not enough' })
    expect(() => task.fromCreate('{"code":0,"data":{}}')).toThrow(SyntaxError)
  })
})

describe('polling', () => {
  it('GETs the task by id; runs until succeed, then the links (a .jpg link is a JPEG)', () => {
    expect(task.toPoll('T/1', ctx)).toMatchObject({ method: 'GET', url: 'https://api-singapore.klingai.com/v1/images/generations/T%2F1' })
    const job = imageJob({ tier: '2K' })
    expect(task.fromPoll('{"code":0,"data":{"task_id":"T-1","task_status":"processing"}}', job)).toBeUndefined()
    expect(task.fromPoll('{"code":0,"data":{"task_id":"T-1","task_status":"succeed","task_result":{"images":[{"index":0,"url":"https://cdn.example/1.jpg"},{"index":1,"url":"https://cdn.example/2.png"}]}}}', job))
      .toEqual({ images: [{ url: 'https://cdn.example/1.jpg', mimeType: 'image/jpeg' }, { url: 'https://cdn.example/2.png', mimeType: 'image/png' }], tier: '2K' })
  })

  it("a failed task is the upstream's error with Kling's reason", () => {
    expect(thrownBy(() => task.fromPoll('{"code":0,"data":{"task_id":"T-1","task_status":"failed","task_status_msg":"Image generation failed due to risk control"}}', imageJob({}))))
      .toMatchObject({ kind: 'upstream_error', status: 502, message: 'Image generation failed due to risk control' })
  })
})

describe('errors', () => {
  it("the HTTP status with Kling's code and message", () => {
    expect(klingImages.fromError(429, '{"code":1303,"message":"Parallel task over resource pack limit","request_id":"r-3"}')).toMatchObject({ status: 429, code: '1303', message: 'Parallel task over resource pack limit', retryable: true })
    expect(klingImages.fromError(401, '{"code":1004,"message":"Authorization is invalid"}')).toMatchObject({ status: 401, code: '1004' })
  })
})
