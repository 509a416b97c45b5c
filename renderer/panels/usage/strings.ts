import type { Plurals } from '../../format'
import type { Strings } from '../../i18n'
import type { AttemptKey } from './attempts'

type Key =
  | 'title' | 'account' | 'balance' | 'reserved' | 'available' | 'concurrency' | 'amount' | 'addFunds' | 'setBalance'
  | 'setConcurrency' | 'badAmount' | 'requests' | 'group' | 'key' | 'model' | 'endpoint' | 'status' | 'since' | 'until'
  | 'any' | 'status_ok' | 'status_error' | 'apply' | 'clear' | 'autoRefresh' | 'refresh' | 'older' | 'newer' | 'newest'
  | 'col_time' | 'col_group' | 'col_key' | 'col_model' | 'col_endpoint' | 'col_status' | 'col_tokens' | 'col_cost' | 'col_latency'
  | 'noRequests' | 'totals' | 'pageOf' | 'reservedHelp'
  | 'housekeeping' | 'housekeepingHelp' | 'columns' | 'spendTitle' | 'byModel' | 'byGroup' | 'activityTitle' | 'latencyTitle' | 'keysTitle'
  | 'noModel' | 'noGroup' | 'noKey' | 'revokedKey' | 'appKey' | 'col_day' | 'col_total' | 'col_requests' | 'col_errors' | 'col_errorRate'
  | 'col_share' | 'errorRate' | 'noUsage' | 'rangeTotal' | 'chartData' | 'range' | 'sampled'
  | 'budget' | 'spent' | 'noLimit' | 'noLimitHelp' | 'removeLimit'
  | 'attemptsTitle' | 'attemptsShow' | 'attempt_account' | 'attempt_model' | 'attempt_outcome' | 'attempt_ms' | 'attempt_next'
  | 'detail' | 'detailOf' | 'detail_id' | 'detail_time' | 'detail_requested' | 'detail_served' | 'detail_servedBy' | 'detail_notServed'
  | 'detail_accounts' | 'detail_noAccounts' | 'detail_total' | 'detail_upstream'
  | AttemptKey

/** The usage panel's text. */
export const STRINGS: Strings<Key> = {
  en: {
    title: 'Usage', account: 'Account', balance: 'Balance', reserved: 'Reserved', available: 'Available', concurrency: 'Concurrency cap',
    amount: 'Amount (USD)', addFunds: 'Add funds', setBalance: 'Set balance', setConcurrency: 'Set cap', badAmount: 'Enter an amount.',
    reservedHelp: 'Held for requests and video tasks under way.',
    requests: 'Requests', group: 'Group', key: 'Key', model: 'Model', endpoint: 'Endpoint', status: 'Status', since: 'From', until: 'To',
    any: 'any', status_ok: 'ok', status_error: 'error', apply: 'Apply', clear: 'Clear', autoRefresh: 'Refresh every 5 s', refresh: 'Refresh',
    older: 'Older', newer: 'Newer', newest: 'Newest', col_time: 'Time', col_group: 'Group', col_key: 'Key', col_model: 'Model',
    col_endpoint: 'Endpoint', col_status: 'Status', col_tokens: 'Tokens in / out', col_cost: 'Cost', col_latency: 'Latency',
    noRequests: 'No requests match.', totals: 'This page', pageOf: 'page {n}',
    housekeeping: "Show the app's own calls", housekeepingHelp: "The app's own keys listing models (GET /v1/models), reading usage and pricing what you are about to send (POST /v1/quote). Chats, images and videos made in the app always count.",
    columns: 'Columns', spendTitle: 'Spending per day', byModel: 'By model', byGroup: 'By group', activityTitle: 'Requests and error rate',
    latencyTitle: 'Latency (p50 / p90 / p99)', keysTitle: 'Spending by key', noModel: '(no model)', noGroup: '(no group)', noKey: '(no key)',
    revokedKey: 'revoked key', appKey: "the app's key", col_day: 'Day', col_total: 'Total', col_requests: 'Requests', col_errors: 'Errors',
    col_errorRate: 'Error rate', col_share: 'Share', errorRate: 'Error rate', noUsage: 'No requests in these days.',
    rangeTotal: '{cost} spent, {requests}, {errors}', chartData: 'The chart as a table', range: 'Days', sampled: 'percentiles of {n} sampled requests',
    budget: 'Budget', spent: 'Spent', noLimit: 'No limit', removeLimit: 'Remove limit',
    noLimitHelp: 'No budget is set: requests are never refused for money. Set a balance to make it a spending limit.',
    attemptsTitle: 'Upstream attempts', attemptsShow: 'Show the upstream attempts', attempt_account: 'Account', attempt_model: 'Model',
    attempt_outcome: 'Outcome', attempt_ms: 'Took', attempt_next: 'Then',
    detail: 'Detail', detailOf: 'Detail of request {id}', detail_id: 'Request id', detail_time: 'Received',
    detail_requested: 'Model as requested', detail_served: 'Model as served', detail_servedBy: '{model} (account {account})',
    detail_notServed: 'none answered', detail_accounts: 'Accounts tried', detail_noAccounts: 'none (no upstream call)',
    detail_total: 'Total time', detail_upstream: 'Time in upstream calls',
    at_ok: 'answered', at_status: 'HTTP {status}', at_timeout: 'timed out', at_reset: 'connection reset', at_connect: 'connection refused',
    at_malformed: 'malformed answer', at_empty: 'empty answer', at_aborted: 'client left', at_skipped: 'skipped: circuit breaker open',
    at_error: 'error', at_failedOver: 'next account', at_noneLeft: 'no account left', at_retryAsked: 'retry after {ms} ms, as the upstream asked',
    at_retryBackoff: 'retry after a {ms} ms backoff', at_budgetSpent: 'retry budget spent', at_breakerOpened: 'circuit breaker opened',
    at_clientLeft: 'client left', at_ended: 'ended: not an upstream failure',
  },
  zh: {
    title: '用量', account: '账户', balance: '余额', reserved: '预留', available: '可用', concurrency: '并发上限',
    amount: '金额（美元）', addFunds: '充值', setBalance: '设置余额', setConcurrency: '设置上限', badAmount: '请输入金额。',
    reservedHelp: '为进行中的请求和视频任务预留。',
    requests: '请求', group: '分组', key: '密钥', model: '模型', endpoint: '接口', status: '状态', since: '从', until: '到',
    any: '全部', status_ok: '成功', status_error: '失败', apply: '应用', clear: '清除', autoRefresh: '每 5 秒刷新', refresh: '刷新',
    older: '更早', newer: '更新', newest: '最新', col_time: '时间', col_group: '分组', col_key: '密钥', col_model: '模型',
    col_endpoint: '接口', col_status: '状态', col_tokens: '输入 / 输出 tokens', col_cost: '费用', col_latency: '延迟',
    noRequests: '没有匹配的请求。', totals: '本页合计', pageOf: '第 {n} 页',
    housekeeping: '显示应用自身的调用', housekeepingHelp: '应用自身的密钥列出模型（GET /v1/models）、读取用量以及为即将发送的内容报价（POST /v1/quote）的调用。在应用中进行的对话、图像和视频始终计入。',
    columns: '列', spendTitle: '每日花费', byModel: '按模型', byGroup: '按分组', activityTitle: '请求数与错误率',
    latencyTitle: '延迟（p50 / p90 / p99）', keysTitle: '按密钥的花费', noModel: '（无模型）', noGroup: '（无分组）', noKey: '（无密钥）',
    revokedKey: '已撤销的密钥', appKey: '应用密钥', col_day: '日期', col_total: '合计', col_requests: '请求数', col_errors: '错误数',
    col_errorRate: '错误率', col_share: '占比', errorRate: '错误率', noUsage: '这些天没有请求。',
    rangeTotal: '花费 {cost}，{requests}，{errors}', chartData: '图表数据表', range: '天数', sampled: '由 {n} 个抽样请求计算的百分位',
    budget: '预算', spent: '已花费', noLimit: '不限', removeLimit: '取消上限',
    noLimitHelp: '尚未设置预算：不会因金额拒绝请求。设置余额即可将其作为支出上限。',
    attemptsTitle: '上游尝试', attemptsShow: '显示上游尝试', attempt_account: '账户', attempt_model: '模型',
    attempt_outcome: '结果', attempt_ms: '耗时', attempt_next: '随后',
    detail: '详情', detailOf: '请求 {id} 的详情', detail_id: '请求编号', detail_time: '接收时间',
    detail_requested: '请求的模型', detail_served: '实际应答的模型', detail_servedBy: '{model}（账户 {account}）',
    detail_notServed: '无应答', detail_accounts: '尝试过的账户', detail_noAccounts: '无（未调用上游）',
    detail_total: '总耗时', detail_upstream: '上游调用耗时',
    at_ok: '已应答', at_status: 'HTTP {status}', at_timeout: '超时', at_reset: '连接被重置', at_connect: '连接被拒绝',
    at_malformed: '应答格式错误', at_empty: '空应答', at_aborted: '客户端已离开', at_skipped: '已跳过：熔断中',
    at_error: '错误', at_failedOver: '切换到下一个账户', at_noneLeft: '没有可用的账户了', at_retryAsked: '按上游要求 {ms} 毫秒后重试',
    at_retryBackoff: '退避 {ms} 毫秒后重试', at_budgetSpent: '重试预算已用完', at_breakerOpened: '熔断已打开',
    at_clientLeft: '客户端已离开', at_ended: '结束：并非上游故障',
  },
}

type Counted = 'requests' | 'errors' | 'lastDays' | 'otherSeries' | 'otherKeys' | 'attempts'

/** The usage panel's counted phrases. */
export const PLURALS: Plurals<Counted> = {
  en: {
    requests: { one: '{n} request', other: '{n} requests' }, errors: { one: '{n} error', other: '{n} errors' },
    lastDays: { one: 'last day', other: 'last {n} days' }, otherSeries: { one: '{n} other', other: '{n} others' },
    otherKeys: { one: '{n} other key', other: '{n} other keys' },
    attempts: { one: '{n} attempt', other: '{n} attempts' },
  },
  zh: {
    requests: { other: '{n} 个请求' }, errors: { other: '{n} 个错误' }, lastDays: { other: '最近 {n} 天' },
    otherSeries: { other: '其他 {n} 项' }, otherKeys: { other: '其他 {n} 个密钥' }, attempts: { other: '{n} 次尝试' },
  },
}

/** `count` as `useCount(PLURALS)` returns it. */
export type UsageCount = (key: Counted, n: number) => string

/** `t` as `useT(STRINGS)` returns it. */
export type UsageT = (key: Key, vars?: Record<string, string | number>) => string
