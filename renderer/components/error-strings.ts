import type { Strings } from '../i18n'

/** Titles of errors by what happened, in every language; the server's own text is shown under them as a quote. */
export type ErrorTitle =
  | 'insufficient_quota' | 'auth' | 'model_not_found' | 'not_found' | 'request_too_large' | 'busy' | 'vendor_refused' | 'refused'
  | 'upstream_error' | 'upstream_unavailable' | 'upstream_timeout' | 'stream_interrupted' | 'internal' | 'network' | 'idempotency'
  | 'interrupted' | 'task_failed' | 'generic'

export const ERROR_TITLES: Strings<ErrorTitle> = {
  en: {
    insufficient_quota: 'The balance or this key’s budget cannot cover the request.',
    auth: 'The gateway did not accept the app’s key.',
    model_not_found: 'This group has no such model.',
    not_found: 'Not found.',
    request_too_large: 'The request is larger than the gateway accepts.',
    busy: 'Too many requests at once; retry when the others have finished.',
    vendor_refused: 'The model’s vendor refused the request.',
    refused: 'The gateway refused the request.',
    upstream_error: 'The model’s account failed to answer.',
    upstream_unavailable: 'The model is overloaded or rate-limited on every account.',
    upstream_timeout: 'The model did not answer in time.',
    stream_interrupted: 'The answer stopped before it was complete.',
    internal: 'The gateway hit an internal error.',
    network: 'Could not reach the gateway.',
    idempotency: 'This retry’s key was already used for a different request.',
    interrupted: 'The app closed before the answer came.',
    task_failed: 'The task failed at the vendor.',
    generic: 'The request failed (HTTP {status}).',
  },
  zh: {
    insufficient_quota: '余额或此密钥的预算不足以支付此请求。',
    auth: '网关不接受应用的密钥。',
    model_not_found: '此分组中没有这个模型。',
    not_found: '未找到。',
    request_too_large: '请求超过了网关接受的大小。',
    busy: '同时进行的请求过多，请在其他请求完成后重试。',
    vendor_refused: '模型服务商拒绝了此请求。',
    refused: '网关拒绝了此请求。',
    upstream_error: '模型账户未能给出回答。',
    upstream_unavailable: '所有账户上的模型都已过载或限流。',
    upstream_timeout: '模型响应超时。',
    stream_interrupted: '回答在完成前中断了。',
    internal: '网关内部错误。',
    network: '无法连接网关。',
    idempotency: '此重试的密钥已被另一个请求使用。',
    interrupted: '应用在回答到达前关闭了。',
    task_failed: '任务在服务商处失败。',
    generic: '请求失败（HTTP {status}）。',
  },
}
