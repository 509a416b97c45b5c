import type { Language } from '../../shared/admin'

/**
 * The one table of how an error is shown: by what happened (error-view.ts picks the row from the error's code and
 * the vendor's reason), its title and the fix in every language. `{account}` is the account phrase (ACCOUNT below),
 * `{status}` the HTTP status. The vendor's or gateway's own words are quoted under them, never part of them.
 */
export type ErrorKind =
  | 'key_refused' | 'unreachable' | 'rate_limited' | 'overloaded' | 'timeout' | 'moderation' | 'vendor_error' | 'bad_answer'
  | 'vendor_refused' | 'no_account' | 'budget' | 'too_long' | 'auth' | 'model_not_found' | 'not_found' | 'request_too_large'
  | 'busy' | 'refused' | 'stream_interrupted' | 'internal' | 'network' | 'idempotency' | 'interrupted' | 'task_failed' | 'generic'

export interface ErrorWords {
  title: string
  fix: string
}

export interface ErrorRow {
  en: ErrorWords
  zh: ErrorWords
  /** the fix is done on the account (its link is the first thing offered) or under Usage's budget */
  fixAt?: 'account' | 'budget'
}

export const ERROR_TABLE: Record<ErrorKind, ErrorRow> = {
  key_refused: {
    fixAt: 'account',
    en: { title: 'The vendor refused the key of {account}.', fix: 'Check the key of {account} under Keys & groups; Test connection tells at once.' },
    zh: { title: '服务商拒绝了{account}的密钥。', fix: '请在“密钥与分组”中检查{account}的密钥；“测试连接”可立即确认。' },
  },
  unreachable: {
    fixAt: 'account',
    en: { title: 'The vendor could not be reached from {account}.', fix: 'Check the base URL of {account} and this computer’s network, then retry.' },
    zh: { title: '无法从{account}连接到服务商。', fix: '请检查{account}的基础地址和本机网络，然后重试。' },
  },
  rate_limited: {
    en: { title: 'The vendor is rate-limiting {account}.', fix: 'Retry in a moment, or add another account to the group.' },
    zh: { title: '服务商正在对{account}限流。', fix: '请稍后重试，或为分组添加另一个账户。' },
  },
  overloaded: {
    en: { title: 'The model is overloaded at the vendor.', fix: 'Retry in a moment, or add another account to the group.' },
    zh: { title: '服务商处的模型已过载。', fix: '请稍后重试，或为分组添加另一个账户。' },
  },
  timeout: {
    en: { title: 'The model did not answer in time.', fix: 'Retry; a shorter answer (lower max_tokens) or a smaller request comes back sooner.' },
    zh: { title: '模型响应超时。', fix: '请重试；调低 max_tokens 或缩小请求可以更快得到回答。' },
  },
  moderation: {
    en: { title: 'The vendor’s content check refused this request.', fix: 'Change the prompt or the images and submit again; the account is fine.' },
    zh: { title: '服务商的内容审核拒绝了此请求。', fix: '请修改提示词或图片后重新提交；账户本身没有问题。' },
  },
  vendor_error: {
    en: { title: 'The vendor hit an error on its side.', fix: 'Retry later; if it repeats, look at the vendor’s status page.' },
    zh: { title: '服务商内部出错。', fix: '请稍后重试；如果反复出现，请查看服务商的状态页面。' },
  },
  bad_answer: {
    en: { title: 'The vendor’s answer could not be read.', fix: 'Retry; if it repeats, try another account or model.' },
    zh: { title: '无法读取服务商的回答。', fix: '请重试；如果反复出现，请换一个账户或模型。' },
  },
  vendor_refused: {
    en: { title: 'The vendor refused the request.', fix: 'Read the vendor’s words below and change the request.' },
    zh: { title: '服务商拒绝了此请求。', fix: '请阅读下方服务商的原话并修改请求。' },
  },
  no_account: {
    fixAt: 'account',
    en: { title: 'No account answered for this model.', fix: 'Add an account that serves this model to the group under Keys & groups.' },
    zh: { title: '没有账户为此模型作答。', fix: '请在“密钥与分组”中为分组添加提供此模型的账户。' },
  },
  budget: {
    fixAt: 'budget',
    en: { title: 'The balance or a budget cannot cover the request.', fix: 'Raise the budget or add funds under Usage.' },
    zh: { title: '余额或预算不足以支付此请求。', fix: '请在“用量”中提高预算或充值。' },
  },
  too_long: {
    en: { title: 'The request is longer than the model accepts.', fix: 'Lower max_tokens or shorten the conversation.' },
    zh: { title: '请求超过了模型能接受的长度。', fix: '请调低 max_tokens 或缩短对话。' },
  },
  auth: {
    en: { title: 'The gateway did not accept the app’s key.', fix: 'Reload the app; if it repeats, sign in again.' },
    zh: { title: '网关不接受应用的密钥。', fix: '请重新加载应用；如果反复出现，请重新登录。' },
  },
  model_not_found: {
    en: { title: 'This group has no such model.', fix: 'Pick another model, or add it to the group under Keys & groups.' },
    zh: { title: '此分组中没有这个模型。', fix: '请选择其他模型，或在“密钥与分组”中把它加入分组。' },
  },
  not_found: {
    en: { title: 'Not found.', fix: 'Refresh the list.' },
    zh: { title: '未找到。', fix: '请刷新列表。' },
  },
  request_too_large: {
    en: { title: 'The request is larger than the gateway accepts.', fix: 'Send smaller or fewer images.' },
    zh: { title: '请求超过了网关接受的大小。', fix: '请发送更小或更少的图片。' },
  },
  busy: {
    en: { title: 'Too many requests at once.', fix: 'Retry when the others have finished.' },
    zh: { title: '同时进行的请求过多。', fix: '请在其他请求完成后重试。' },
  },
  refused: {
    en: { title: 'The gateway refused the request.', fix: 'Read the reason below and change the request.' },
    zh: { title: '网关拒绝了此请求。', fix: '请阅读下方的原因并修改请求。' },
  },
  stream_interrupted: {
    en: { title: 'The answer stopped before it was complete.', fix: 'Retry to ask again.' },
    zh: { title: '回答在完成前中断了。', fix: '请重试。' },
  },
  internal: {
    en: { title: 'The gateway hit an internal error.', fix: 'Retry; if it repeats, restart the app.' },
    zh: { title: '网关内部错误。', fix: '请重试；如果反复出现，请重启应用。' },
  },
  network: {
    en: { title: 'Could not reach the gateway.', fix: 'Check that the app is still running, then retry.' },
    zh: { title: '无法连接网关。', fix: '请确认应用仍在运行，然后重试。' },
  },
  idempotency: {
    en: { title: 'This retry’s key was already used for a different request.', fix: 'Submit it as a new request.' },
    zh: { title: '此重试的密钥已被另一个请求使用。', fix: '请作为新请求提交。' },
  },
  interrupted: {
    en: { title: 'The app closed before the answer came.', fix: 'Submit again.' },
    zh: { title: '应用在回答到达前关闭了。', fix: '请重新提交。' },
  },
  task_failed: {
    en: { title: 'The task failed at the vendor.', fix: 'Read the vendor’s words below; retry or change the request.' },
    zh: { title: '任务在服务商处失败。', fix: '请阅读下方服务商的原话；重试或修改请求。' },
  },
  generic: {
    en: { title: 'The request failed (HTTP {status}).', fix: 'Retry.' },
    zh: { title: '请求失败（HTTP {status}）。', fix: '请重试。' },
  },
}

/** How `{account}` reads: the account by name, or the group's accounts when the request log does not name one. */
export const ACCOUNT: Record<Language, { named: string; unnamed: string }> = {
  en: { named: 'account “{id}”', unnamed: 'the group’s accounts' },
  zh: { named: '账户“{id}”', unnamed: '分组中的账户' },
}

/** The label of the quoted words: the vendor's own, or the gateway's. */
export const SAID: Record<Language, { vendor: string; gateway: string }> = {
  en: { vendor: 'The vendor said:', gateway: 'The gateway said:' },
  zh: { vendor: '服务商的原话：', gateway: '网关的原话：' },
}
