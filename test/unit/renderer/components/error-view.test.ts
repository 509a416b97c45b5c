import { describe, expect, it } from 'vitest'
import type { UpstreamNote } from '../../../../shared/upstream-reasons'
import { ERROR_TABLE } from '../../../../renderer/components/error-strings'
import { presentError } from '../../../../renderer/components/error-view'
import { englishWordsIn } from '../../shared/zh-words'

const note = (reason: UpstreamNote['reason'], status: number | null = null, message: string | null = null): UpstreamNote => ({ reason, status, message })

describe('presentError: one table keyed by code and the vendor’s reason', () => {
  it('a refused key names the vendor, the account, and the fix; the vendor’s words are quoted', () => {
    const error = { status: 502, code: 'upstream_error', message: 'The model is temporarily unavailable after trying every account (account credentials refused, HTTP 401).', requestId: 'req_1', upstream: note('key_refused', 401, 'Incorrect API key provided.') }
    expect(presentError(error, { upstream: 'oa-main', status: 502 }, 'en', true)).toEqual({
      kind: 'key_refused',
      status: 502,
      title: 'The vendor refused the key of account “oa-main”.',
      fix: 'Check the key of account “oa-main” under Keys & groups; Test connection tells at once.',
      detail: 'Incorrect API key provided.',
      detailLabel: 'The vendor said:',
      account: 'oa-main',
      actions: ['retry', 'account'],
    })
    const zh = presentError(error, { upstream: 'oa-main', status: 502 }, 'zh', true)
    expect([zh.title, zh.fix, zh.detailLabel, zh.detail]).toEqual([
      '服务商拒绝了账户“oa-main”的密钥。', '请在“密钥与分组”中检查账户“oa-main”的密钥；“测试连接”可立即确认。', '服务商的原话：', 'Incorrect API key provided.',
    ])
  })

  it('a content check refusing a video task is moderation, not an account failure', () => {
    const view = presentError({ status: null, code: 'OutputVideoSensitiveContentDetected', message: 'The output video may contain sensitive information.' }, { upstream: 'ark', status: 200 }, 'en', true)
    expect(view).toMatchObject({ kind: 'moderation', title: 'The vendor’s content check refused this request.', fix: 'Change the prompt or the images and submit again; the account is fine.', detailLabel: 'The vendor said:' })
    expect(presentError({ status: 400, code: 'moderation_blocked', message: 'Your request was rejected by the safety system.' }, { upstream: 'oa', status: 400 }, 'zh', true).title).toBe('服务商的内容审核拒绝了此请求。')
  })

  it('the gateway’s own 400 (no account tried) is the gateway’s refusal, its words labelled as the gateway’s', () => {
    const view = presentError({ status: 400, code: 'invalid_request', message: 'size: must be <W>x<H>' }, { upstream: null, status: 400 }, 'en', false)
    expect(view).toEqual({
      kind: 'refused', status: 400, title: 'The gateway refused the request.', fix: 'Read the reason below and change the request.',
      detail: 'size: must be <W>x<H>', detailLabel: 'The gateway said:', account: null, actions: [],
    })
  })

  it.each([
    [{ status: 402, code: 'insufficient_quota', message: 'The account balance cannot cover this request; top up to continue.' }, 'budget', 'Raise the budget or add funds under Usage.', ['retry', 'budget']],
    [{ status: 413, code: 'request_too_large', message: 'The request body exceeds the 60000000 byte limit.' }, 'request_too_large', 'Send smaller or fewer images.', ['retry']],
    [{ status: 404, code: 'model_not_found', message: 'The model `x` does not exist or you do not have access to it.' }, 'model_not_found', 'Pick another model, or add it to the group under Keys & groups.', ['retry']],
    [{ status: 400, code: 'context_length_exceeded', message: 'This model’s maximum context length is 8192 tokens.' }, 'too_long', 'Lower max_tokens or shorten the conversation.', ['retry']],
    [{ status: 502, code: 'upstream_error', message: '已尝试所有账户，模型暂时不可用（HTTP 500）。' }, 'vendor_error', 'Retry later; if it repeats, look at the vendor’s status page.', ['retry']],
    [{ status: 503, code: 'upstream_unavailable', message: 'x', upstream: note('rate_limited', 429) }, 'rate_limited', 'Retry in a moment, or add another account to the group.', ['retry']],
    [{ status: 502, code: 'upstream_error', message: 'x', upstream: note('unreachable') }, 'unreachable', 'Check the base URL of the group’s accounts and this computer’s network, then retry.', ['retry']],
    [{ status: 504, code: 'upstream_timeout', message: 'x', upstream: note('timeout') }, 'timeout', 'Retry; a shorter answer (lower max_tokens) or a smaller request comes back sooner.', ['retry']],
    [{ status: 503, code: 'some_vendor_code', message: 'overloaded' }, 'overloaded', 'Retry in a moment, or add another account to the group.', ['retry']],
    [{ status: 418, code: 'teapot', message: 'short and stout' }, 'refused', 'Read the reason below and change the request.', ['retry']],
    [{ status: 507, code: 'odd', message: '' }, 'generic', 'Retry.', ['retry']],
    [{ status: null, code: 'network_error', message: 'Failed to fetch' }, 'network', 'Check that the app is still running, then retry.', ['retry']],
    [{ status: null, code: 'stream_ended_early', message: '' }, 'stream_interrupted', 'Retry to ask again.', ['retry']],
  ])('maps %o by code and reason, then status', (error, kind, fix, actions) => {
    const view = presentError(error, null, 'en', true)
    expect([view.kind, view.fix, view.actions]).toEqual([kind, fix, actions])
    expect(view.detail).toBe(error.message === '' ? null : error.message)
  })

  it('the server’s text never becomes the title: a Chinese gateway message under an English title', () => {
    const view = presentError({ status: 504, code: 'upstream_timeout', message: '模型响应超时。' }, { upstream: 'ark-1', status: 504 }, 'en', true)
    expect(view).toMatchObject({ title: 'The model did not answer in time.', detail: '模型响应超时。', account: 'ark-1', actions: ['retry', 'account'] })
  })

  it('a task that failed at the vendor (no HTTP status) with its account', () => {
    const view = presentError({ status: null, code: 'vendor_failed', message: 'Video generation failed.' }, { upstream: 'kling', status: 200 }, 'zh', false)
    expect(view).toMatchObject({ kind: 'task_failed', status: null, title: '任务在服务商处失败。', detail: 'Video generation failed.', detailLabel: '服务商的原话：', account: 'kling', actions: ['account'] })
  })

  it('the request log’s status wins over the one guessed from a task’s code', () => {
    const view = presentError({ status: 502, code: 'invalid_value', message: 'Invalid value for size.' }, { upstream: 'oa', status: 400 }, 'en', true)
    expect(view).toMatchObject({ kind: 'vendor_refused', status: 400, title: 'The vendor refused the request.', account: 'oa' })
  })

  it('every row of the table, in Chinese, has no English word of four letters or more other than names and codes', () => {
    const words = Object.entries(ERROR_TABLE).flatMap(([kind, row]) => [row.zh.title, row.zh.fix].flatMap((text) => englishWordsIn(text).map((w) => `${kind}: ${w}`)))
    expect(words).toEqual([])
    // and each row is worded in both languages, the fix included
    for (const row of Object.values(ERROR_TABLE)) for (const words of [row.en, row.zh]) expect(words.title.length * words.fix.length).toBeGreaterThan(0)
  })
})
