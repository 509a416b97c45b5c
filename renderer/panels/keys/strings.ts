import type { Plurals } from '../../format'
import type { Strings } from '../../i18n'

type Key =
  | 'title' | 'groups' | 'newGroup' | 'noGroups' | 'edit' | 'testConnection' | 'testing' | 'delete' | 'confirmDelete' | 'cancel' | 'save' | 'create' | 'selected'
  | 'groupId' | 'groupName' | 'protocol' | 'protocol_chat' | 'protocol_messages' | 'protocolFixed' | 'models' | 'filterModels'
  | 'messagesModelsOnly' | 'failover' | 'failoverHelp' | 'addToOrder' | 'chooseAccount' | 'moveUp' | 'moveDown'
  | 'remove' | 'noAccountsInOrder' | 'problem_id' | 'continuation' | 'continuationHelp'
  | 'type_chat' | 'type_image' | 'type_video' | 'type_speech' | 'type_interactions'
  | 'upstreams' | 'upstreamsHelp' | 'addAccount' | 'accountId' | 'vendor' | 'baseUrl' | 'apiKey' | 'apiKeyKeep' | 'apiKeyKling'
  | 'modelsOptional' | 'allModels' | 'priority' | 'removeFromGroup' | 'deleteAccount' | 'confirmDeleteAccount' | 'noUpstreams'
  | 'problem_baseUrl' | 'problem_apiKey' | 'problem_klingKey' | 'problem_priority' | 'usedBy' | 'secretHidden'
  | 'gatewayKeys' | 'newKey' | 'keyName' | 'concurrency' | 'quota' | 'expires' | 'never' | 'noLimit' | 'createKey'
  | 'secretTitle' | 'secretWarning' | 'copy' | 'copied' | 'close' | 'secretLeaveQuestion' | 'secretStay' | 'secretLeave'
  | 'col_key' | 'col_name' | 'col_created' | 'col_used' | 'col_expires' | 'col_status' | 'col_actions' | 'unnamed'
  | 'status_active' | 'status_disabled' | 'status_expired' | 'status_exhausted' | 'appKey' | 'appKeyHelp'
  | 'rename' | 'disable' | 'enable' | 'limits' | 'revoke' | 'confirmRevoke' | 'noKeys'
  | 'problem_concurrency' | 'problem_quota' | 'problem_expires'
  | 'useFromCode' | 'snippetHelp' | 'node' | 'python' | 'curl' | 'chooseGroup'
  | 'upstreamBudget' | 'upstreamBudgetHelp' | 'upstreamSpent' | 'problem_budget'
  | 'modelNames' | 'modelNamesHelp' | 'addModelName' | 'gatewayModel' | 'nameAtAccount' | 'removeModelName' | 'problem_modelName'

/** The keys & groups panel's text. */
export const STRINGS: Strings<Key> = {
  en: {
    title: 'Keys & groups', groups: 'Groups', newGroup: 'New group', noGroups: 'No groups yet.', edit: 'Edit', testConnection: 'Test connection', testing: 'Testing…', delete: 'Delete',
    confirmDelete: 'Delete the group {name}? Its keys must be revoked first.', cancel: 'Cancel', save: 'Save', create: 'Create', selected: 'selected',
    groupId: 'Id', groupName: 'Name', protocol: 'Protocol', protocol_chat: 'Chat completions (OpenAI SDKs)',
    protocol_messages: 'Messages (Anthropic SDKs)', protocolFixed: 'The protocol of a group cannot change.',
    models: 'Models', filterModels: 'Filter models', messagesModelsOnly: 'A messages group serves the models of that convention only.',
    failover: 'Upstream accounts, in failover order',
    failoverHelp: 'The first account is tried first; the next ones take over when it fails.', addToOrder: 'Add',
    chooseAccount: 'Choose an account…', moveUp: 'Move up', moveDown: 'Move down', remove: 'Remove',
    noAccountsInOrder: 'No accounts yet: the group cannot serve anything.', problem_id: 'Give the group an id.',
    continuation: 'Continue cut answers on the next account',
    continuationHelp: 'When a streamed answer breaks after its first words, the next account that can continue a started answer writes the rest, so the caller gets one whole answer. Off: the caller gets the stream\'s error.',
    type_chat: 'Chat', type_image: 'Image', type_video: 'Video', type_speech: 'Speech', type_interactions: 'Interactions',
    upstreams: 'Upstream accounts', upstreamsHelp: 'The vendor accounts this group relays to. Secrets are sealed at rest and never shown again.',
    addAccount: 'Add account', accountId: 'Account id', vendor: 'Vendor', baseUrl: 'Base URL', apiKey: 'API key',
    apiKeyKeep: 'Leave blank to keep the current key', apiKeyKling: 'ACCESS_KEY:SECRET_KEY', modelsOptional: 'Models (optional, comma separated)',
    allModels: 'every model of the vendor', priority: 'Priority', removeFromGroup: 'Remove from group', deleteAccount: 'Delete account',
    confirmDeleteAccount: 'Delete the account {id} for good? It leaves every group that uses it ({groups}).', noUpstreams: 'This group has no upstream accounts.',
    problem_baseUrl: 'The base URL starts with http:// or https://.', problem_apiKey: 'Enter the API key.',
    problem_klingKey: 'A Kling key is ACCESS_KEY:SECRET_KEY.', problem_priority: 'The priority is a number.',
    modelNames: 'Model names at this account',
    modelNamesHelp: 'When the account calls a model by another name (an Azure deployment, a reseller\'s vendor/model id): the gateway sends that name, and clients and the usage log still see the model\'s id. An account with names serves the models listed and named.',
    addModelName: 'Add a name', gatewayModel: 'Model', nameAtAccount: 'Name at this account', removeModelName: 'Remove',
    problem_modelName: 'Give each model name row both a model and its name at this account.',
    usedBy: 'used by {groups}', secretHidden: 'key',
    gatewayKeys: 'Gateway keys', newKey: 'New key', keyName: 'Name', concurrency: 'Concurrency cap', quota: 'Quota (USD)', expires: 'Expires',
    never: 'never', noLimit: 'no limit', createKey: 'Create key',
    secretTitle: 'Your new key', secretWarning: 'Copy it now: it will not be shown again. Only its hint is kept.',
    copy: 'Copy', copied: 'Copied', close: 'Done',
    secretLeaveQuestion: 'Close without copying the key? It cannot be shown again.', secretStay: 'Keep it open', secretLeave: 'Close without copying',
    col_key: 'Key', col_name: 'Name', col_created: 'Created', col_used: 'Used / quota', col_expires: 'Expires', col_status: 'Status',
    col_actions: '', unnamed: '(no name)',
    status_active: 'active', status_disabled: 'disabled', status_expired: 'expired', status_exhausted: 'quota used up',
    appKey: 'app', appKeyHelp: "The app's own key for this group's panels", rename: 'Rename', disable: 'Disable', enable: 'Enable',
    limits: 'Limits', revoke: 'Revoke', confirmRevoke: 'Revoke {key}? Calls with it stop working at once.', noKeys: 'No keys in this group yet.',
    problem_concurrency: 'The concurrency cap is a whole number from 1.', problem_quota: 'The quota is an amount of 0 or more.',
    problem_expires: 'The expiry is a date.',
    useFromCode: 'Use from code', snippetHelp: 'Put a key of this group in GATEHOUSE_API_KEY.', node: 'Node', python: 'Python', curl: 'curl',
    chooseGroup: 'Choose or create a group.',
    upstreamBudget: 'Budget (USD)', upstreamBudgetHelp: 'A spending cap for this account: once reached, failover skips it. Blank: none.',
    upstreamSpent: 'spent {spent} of {budget}', problem_budget: 'The budget must be an amount of 0 or more, or blank.',
  },
  zh: {
    title: '密钥与分组', groups: '分组', newGroup: '新建分组', noGroups: '还没有分组。', edit: '编辑', testConnection: '测试连接', testing: '正在测试…', delete: '删除',
    confirmDelete: '删除分组 {name}？需先吊销其密钥。', cancel: '取消', save: '保存', create: '创建', selected: '当前',
    groupId: 'ID', groupName: '名称', protocol: '协议', protocol_chat: 'Chat Completions（OpenAI SDK）',
    protocol_messages: 'Messages（Anthropic SDK）', protocolFixed: '分组的协议创建后不能更改。',
    models: '模型', filterModels: '筛选模型', messagesModelsOnly: 'Messages 分组只提供该协议的模型。',
    failover: '上游账号（按故障转移顺序）',
    failoverHelp: '先使用第一个账号；失败时由后面的账号接替。', addToOrder: '添加',
    chooseAccount: '选择账号…', moveUp: '上移', moveDown: '下移', remove: '移除',
    noAccountsInOrder: '还没有账号：此分组无法提供任何模型。', problem_id: '请填写分组 ID。',
    continuation: '回答中断时由下一个账号接着写完',
    continuationHelp: '流式回答在输出部分内容后中断时，由下一个能续写的账号接着写完，调用方收到一个完整的回答。关闭时，调用方收到流的错误。',
    type_chat: '对话', type_image: '图像', type_video: '视频', type_speech: '语音', type_interactions: 'Interactions',
    upstreams: '上游账号', upstreamsHelp: '此分组转发到的厂商账号。密钥加密保存，之后不再显示。',
    addAccount: '添加账号', accountId: '账号 ID', vendor: '厂商', baseUrl: 'Base URL', apiKey: 'API 密钥',
    apiKeyKeep: '留空则保留当前密钥', apiKeyKling: 'ACCESS_KEY:SECRET_KEY', modelsOptional: '模型（可选，逗号分隔）',
    allModels: '该厂商的全部模型', priority: '优先级', removeFromGroup: '从分组移除', deleteAccount: '删除账号',
    confirmDeleteAccount: '永久删除账号 {id}？它将从所有使用它的分组中移除（{groups}）。', noUpstreams: '此分组没有上游账号。',
    problem_baseUrl: 'Base URL 需以 http:// 或 https:// 开头。', problem_apiKey: '请填写 API 密钥。',
    problem_klingKey: '可灵密钥格式为 ACCESS_KEY:SECRET_KEY。', problem_priority: '优先级必须是数字。',
    modelNames: '此账号的模型名称',
    modelNamesHelp: '账号以其他名称调用某个模型时（Azure 部署名、转售商的 vendor/model ID）：网关发送该名称，客户端和用量记录仍显示模型 ID。设置了名称的账号只提供列出和命名的模型。',
    addModelName: '添加名称', gatewayModel: '模型', nameAtAccount: '此账号中的名称', removeModelName: '移除',
    problem_modelName: '每行模型名称需同时填写模型和它在此账号中的名称。',
    usedBy: '使用分组：{groups}', secretHidden: '密钥',
    gatewayKeys: '网关密钥', newKey: '新建密钥', keyName: '名称', concurrency: '并发上限', quota: '额度（美元）', expires: '到期',
    never: '永不', noLimit: '不限', createKey: '创建密钥',
    secretTitle: '新密钥', secretWarning: '请立即复制：此密钥不会再次显示，之后只保留其提示。',
    copy: '复制', copied: '已复制', close: '完成',
    secretLeaveQuestion: '不复制就关闭吗？此密钥无法再次显示。', secretStay: '继续显示', secretLeave: '不复制，直接关闭',
    col_key: '密钥', col_name: '名称', col_created: '创建时间', col_used: '已用 / 额度', col_expires: '到期', col_status: '状态',
    col_actions: '', unnamed: '（未命名）',
    status_active: '可用', status_disabled: '已停用', status_expired: '已过期', status_exhausted: '额度已用完',
    appKey: '应用', appKeyHelp: '应用自身用于此分组各面板的密钥', rename: '重命名', disable: '停用', enable: '启用',
    limits: '限额', revoke: '吊销', confirmRevoke: '吊销 {key}？使用它的调用将立即失效。', noKeys: '此分组还没有密钥。',
    problem_concurrency: '并发上限须为不小于 1 的整数。', problem_quota: '额度须为不小于 0 的金额。',
    problem_expires: '到期时间须为日期。',
    useFromCode: '在代码中使用', snippetHelp: '将此分组的密钥放入环境变量 GATEHOUSE_API_KEY。', node: 'Node', python: 'Python', curl: 'curl',
    chooseGroup: '请选择或创建分组。',
    upstreamBudget: '预算（美元）', upstreamBudgetHelp: '此账号的支出上限：达到后故障转移将跳过它。留空表示不限。',
    upstreamSpent: '已花费 {spent} / {budget}', problem_budget: '预算须为不小于 0 的金额，或留空。',
  },
}

/** `t` as `useT(STRINGS)` returns it. */
export type KeysT = (key: Key, vars?: Record<string, string | number>) => string

/** Counted phrases, in each language's plural forms (`useCount(PLURALS)`): "1 key", "2 keys". */
export const PLURALS: Plurals<'models' | 'keys'> = {
  en: { models: { one: '{n} model', other: '{n} models' }, keys: { one: '{n} key', other: '{n} keys' } },
  zh: { models: { other: '{n} 个模型' }, keys: { other: '{n} 个密钥' } },
}
