import { describe, expect, it } from 'vitest'
import { presentError } from '../../../../renderer/components/error-view'

describe('presentError', () => {
  it('a vendor\'s 4xx: the title in the chosen language, the vendor text as the quote, the account that refused, Retry', () => {
    const error = { status: 400, code: 'moderation_blocked', message: 'Your request was rejected by the safety system.', requestId: 'req_1' }
    expect(presentError(error, { upstream: 'oa-main', status: 400 }, 'en', true)).toEqual({
      status: 400,
      title: 'The model’s vendor refused the request.',
      detail: 'Your request was rejected by the safety system.',
      account: 'oa-main',
      actions: ['retry', 'account'],
    })
    expect(presentError(error, { upstream: 'oa-main', status: 400 }, 'zh', true).title).toBe('模型服务商拒绝了此请求。')
  })

  it('the gateway\'s own 400 (no account tried) is the gateway\'s refusal', () => {
    const view = presentError({ status: 400, code: 'invalid_request', message: 'size: must be <W>x<H>' }, { upstream: null, status: 400 }, 'en', false)
    expect(view).toEqual({ status: 400, title: 'The gateway refused the request.', detail: 'size: must be <W>x<H>', account: null, actions: [] })
  })

  it.each([
    [{ status: 402, code: 'insufficient_quota', message: 'The account balance cannot cover this request; top up to continue.' }, 'The balance or this key’s budget cannot cover the request.', ['retry', 'budget']],
    [{ status: 413, code: 'request_too_large', message: 'The request body exceeds the 60000000 byte limit.' }, 'The request is larger than the gateway accepts.', ['retry']],
    [{ status: 404, code: 'model_not_found', message: 'The model `x` does not exist or you do not have access to it.' }, 'This group has no such model.', ['retry']],
    [{ status: 502, code: 'upstream_error', message: '已尝试所有账户，模型暂时不可用（HTTP 500）。' }, 'The model’s account failed to answer.', ['retry']],
    [{ status: 503, code: 'some_vendor_code', message: 'overloaded' }, 'The model is overloaded or rate-limited on every account.', ['retry']],
    [{ status: 418, code: 'teapot', message: 'short and stout' }, 'The gateway refused the request.', ['retry']],
    [{ status: 507, code: 'odd', message: '' }, 'The request failed (HTTP 507).', ['retry']],
    [{ status: null, code: 'network_error', message: 'Failed to fetch' }, 'Could not reach the gateway.', ['retry']],
    [{ status: null, code: 'stream_ended_early', message: '' }, 'The answer stopped before it was complete.', ['retry']],
  ])('maps %o by code, then status', (error, title, actions) => {
    const view = presentError(error, null, 'en', true)
    expect(view.title).toBe(title)
    expect(view.actions).toEqual(actions)
    expect(view.detail).toBe(error.message === '' ? null : error.message)
  })

  it('the server\'s text never becomes the title: a Chinese gateway message under an English title', () => {
    const view = presentError({ status: 504, code: 'upstream_timeout', message: '模型响应超时。' }, { upstream: 'ark-1', status: 504 }, 'en', true)
    expect(view).toMatchObject({ title: 'The model did not answer in time.', detail: '模型响应超时。', account: 'ark-1', actions: ['retry', 'account'] })
  })

  it('a task that failed at the vendor (no HTTP status) with its account', () => {
    const view = presentError({ status: null, code: 'vendor_failed', message: 'Video generation failed.' }, { upstream: 'kling', status: 200 }, 'zh', false)
    expect(view).toEqual({ status: null, title: '任务在服务商处失败。', detail: 'Video generation failed.', account: 'kling', actions: ['account'] })
  })

  it('the request log\'s status wins over the one guessed from a task\'s code (a vendor code passed through is its refusal)', () => {
    // An async image task's error body has no status; the app reads 502 from an unknown code, the log says 400.
    const view = presentError({ status: 502, code: 'moderation_blocked', message: 'Your request was rejected by the safety system.' }, { upstream: 'oa', status: 400 }, 'en', true)
    expect(view).toMatchObject({ status: 400, title: 'The model’s vendor refused the request.', account: 'oa' })
  })
})
