import type { Strings } from '../../i18n'

type Key =
  | 'title' | 'account' | 'balance' | 'reserved' | 'available' | 'concurrency' | 'amount' | 'addFunds' | 'setBalance'
  | 'setConcurrency' | 'badAmount' | 'requests' | 'group' | 'key' | 'model' | 'endpoint' | 'status' | 'since' | 'until'
  | 'any' | 'status_ok' | 'status_error' | 'apply' | 'clear' | 'autoRefresh' | 'refresh' | 'older' | 'newer' | 'newest'
  | 'col_time' | 'col_group' | 'col_key' | 'col_model' | 'col_endpoint' | 'col_status' | 'col_tokens' | 'col_cost' | 'col_latency'
  | 'noRequests' | 'totals' | 'errors' | 'pageOf' | 'reservedHelp'
  | 'budget' | 'spent' | 'noLimit' | 'noLimitHelp' | 'removeLimit'

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
    noRequests: 'No requests match.', totals: 'This page', errors: '{n} errors', pageOf: 'page {n}',
    budget: 'Budget', spent: 'Spent', noLimit: 'No limit', removeLimit: 'Remove limit',
    noLimitHelp: 'No budget is set: requests are never refused for money. Set a balance to make it a spending limit.',
  },
  zh: {
    title: '用量', account: '账户', balance: '余额', reserved: '预留', available: '可用', concurrency: '并发上限',
    amount: '金额（美元）', addFunds: '充值', setBalance: '设置余额', setConcurrency: '设置上限', badAmount: '请输入金额。',
    reservedHelp: '为进行中的请求和视频任务预留。',
    requests: '请求', group: '分组', key: '密钥', model: '模型', endpoint: '接口', status: '状态', since: '从', until: '到',
    any: '全部', status_ok: '成功', status_error: '失败', apply: '应用', clear: '清除', autoRefresh: '每 5 秒刷新', refresh: '刷新',
    older: '更早', newer: '更新', newest: '最新', col_time: '时间', col_group: '分组', col_key: '密钥', col_model: '模型',
    col_endpoint: '接口', col_status: '状态', col_tokens: '输入 / 输出 tokens', col_cost: '费用', col_latency: '延迟',
    noRequests: '没有匹配的请求。', totals: '本页合计', errors: '{n} 个错误', pageOf: '第 {n} 页',
    budget: '预算', spent: '已花费', noLimit: '不限', removeLimit: '取消上限',
    noLimitHelp: '尚未设置预算：不会因金额拒绝请求。设置余额即可将其作为支出上限。',
  },
}

/** `t` as `useT(STRINGS)` returns it. */
export type UsageT = (key: Key, vars?: Record<string, string | number>) => string
