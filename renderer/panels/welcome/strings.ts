import type { Vendor } from '../../../shared/types'
import type { Plurals } from '../../format'
import type { Strings } from '../../i18n'

type Key =
  | 'title' | 'intro' | 'step_vendor' | 'step_key' | 'step_groups' | 'step_budget' | 'step_first'
  | 'chooseVendor' | 'baseUrl' | 'baseUrlHelp' | 'apiKey' | 'apiKeyKling' | 'test' | 'testing'
  | 'testOk' | 'testOkUnlisted' | 'testNone' | 'vendorSaid'
  | 'reason_unauthorized' | 'reason_not_found' | 'reason_unreachable' | 'reason_timeout' | 'reason_vendor_error' | 'reason_bad_answer' | 'reason_refused'
  | 'chooseGroups' | 'noFittingGroup' | 'budgetTitle' | 'budgetHelp' | 'budgetInvalid' | 'budgetUsd'
  | 'save' | 'saving' | 'firstTitle' | 'firstHelp' | 'group' | 'model' | 'message' | 'firstText' | 'send' | 'noChatModels' | 'loadingModels'
  | 'back' | 'next' | 'skip' | `vendor_${Vendor}`

/** The guided start's text. */
export const STRINGS: Strings<Key> = {
  en: {
    title: 'Get started',
    intro: 'Gatehouse sends your requests to the AI vendors you have accounts with. Add one account to begin; it takes a minute.',
    step_vendor: 'Vendor', step_key: 'Key', step_groups: 'Models', step_budget: 'Budget', step_first: 'First message',
    chooseVendor: 'Which vendor is your account with?',
    baseUrl: 'Base URL', baseUrlHelp: 'Filled in with the vendor\'s address; change it for a compatible server of your own.',
    apiKey: 'API key', apiKeyKling: 'ACCESS_KEY:SECRET_KEY',
    test: 'Test connection', testing: 'Testing…',
    testOk: 'Connected: this account can call {models} the gateway knows.',
    testOkUnlisted: 'This vendor does not list models: its models are offered, and the key is checked at the first call.',
    testNone: 'Connected, but none of the models this account lists is one the gateway knows.',
    vendorSaid: 'The vendor said:',
    reason_unauthorized: 'The vendor refused the key (HTTP {status}): check that it is this vendor\'s key, copied whole, and still active.',
    reason_not_found: 'Nothing answers at this address (HTTP 404): check the base URL.',
    reason_unreachable: 'Could not connect: check the base URL and the network.',
    reason_timeout: 'The vendor did not answer in time.',
    reason_vendor_error: 'The vendor answered with an error (HTTP {status}).',
    reason_bad_answer: 'The address answered, but not with a list of models: check the base URL.',
    reason_refused: 'The gateway does not connect to this address.',
    chooseGroups: 'Which groups get which models? A group is what a gateway key can reach.',
    noFittingGroup: 'No group of this kind exists yet: one will be made with these models.',
    budgetTitle: 'Budget (optional)',
    budgetHelp: 'A spending limit for the whole account. Leave it blank for no limit: nothing is refused for money, and every cost is still recorded under Usage.',
    budgetInvalid: 'Enter an amount of 0 or more, or leave it blank.',
    budgetUsd: 'USD',
    save: 'Save and continue', saving: 'Saving…',
    firstTitle: 'Send a first message', firstHelp: 'It opens Chat with this group and model, and the answer streams in.',
    group: 'Group', model: 'Model', message: 'Message', firstText: 'Hello! Who are you?', send: 'Send and open Chat',
    noChatModels: 'This group has no chat models: choose another group.', loadingModels: 'Loading models…',
    back: 'Back', next: 'Next', skip: 'Skip: set it up by hand under Keys & groups',
    vendor_openai: 'OpenAI (or any OpenAI-compatible server)', vendor_anthropic: 'Anthropic (Claude)', vendor_gemini: 'Google Gemini',
    vendor_ark: 'Volcengine Ark', vendor_dashscope: 'Alibaba Cloud DashScope', vendor_kling: 'Kling', vendor_minimax: 'MiniMax',
    vendor_xai: 'xAI (Grok)', vendor_zhipu: 'Zhipu (GLM)', vendor_gateway: 'Another Gatehouse gateway',
  },
  zh: {
    title: '开始使用',
    intro: 'Gatehouse 把你的请求转发给你已开通账号的 AI 服务商。先添加一个账号即可开始，只需一分钟。',
    step_vendor: '服务商', step_key: '密钥', step_groups: '模型', step_budget: '预算', step_first: '第一条消息',
    chooseVendor: '你的账号属于哪个服务商？',
    baseUrl: '基础地址', baseUrlHelp: '已填入服务商的地址；如使用自建的兼容服务，请改为它的地址。',
    apiKey: 'API 密钥', apiKeyKling: 'ACCESS_KEY:SECRET_KEY',
    test: '测试连接', testing: '正在测试…',
    testOk: '已连接：此账号可调用网关已知的 {models}。',
    testOkUnlisted: '此服务商不提供模型列表：将提供其全部模型，密钥在第一次调用时检查。',
    testNone: '已连接，但此账号列出的模型都不是网关已知的模型。',
    vendorSaid: '服务商原文：',
    reason_unauthorized: '服务商拒绝了此密钥（HTTP {status}）：请确认它是该服务商的密钥、已完整复制且仍然有效。',
    reason_not_found: '此地址没有对应的服务（HTTP 404）：请检查基础地址。',
    reason_unreachable: '无法连接：请检查基础地址和网络。',
    reason_timeout: '服务商没有及时应答。',
    reason_vendor_error: '服务商返回了错误（HTTP {status}）。',
    reason_bad_answer: '此地址有应答，但不是模型列表：请检查基础地址。',
    reason_refused: '网关不会连接此地址。',
    chooseGroups: '哪些分组使用哪些模型？分组决定网关密钥能调用什么。',
    noFittingGroup: '还没有这类分组：将用这些模型新建一个分组。',
    budgetTitle: '预算（可选）',
    budgetHelp: '整个账户的支出上限。留空表示不限：不会因金额拒绝请求，每笔费用仍记录在“用量”中。',
    budgetInvalid: '请输入不小于 0 的金额，或留空。',
    budgetUsd: '美元',
    save: '保存并继续', saving: '正在保存…',
    firstTitle: '发送第一条消息', firstHelp: '将以此分组和模型打开“对话”，回答会逐字显示。',
    group: '分组', model: '模型', message: '消息', firstText: '你好！你是谁？', send: '发送并打开对话',
    noChatModels: '此分组没有对话模型：请选择其他分组。', loadingModels: '正在加载模型…',
    back: '上一步', next: '下一步', skip: '跳过：在“密钥与分组”中手动设置',
    vendor_openai: 'OpenAI（或任何兼容 OpenAI 的服务）', vendor_anthropic: 'Anthropic（Claude）', vendor_gemini: 'Google Gemini',
    vendor_ark: '火山方舟', vendor_dashscope: '阿里云百炼（DashScope）', vendor_kling: '可灵', vendor_minimax: 'MiniMax',
    vendor_xai: 'xAI（Grok）', vendor_zhipu: '智谱（GLM）', vendor_gateway: '另一个 Gatehouse 网关',
  },
}

/** Counted phrases, in each language's plural forms (`useCount(PLURALS)`). */
export const PLURALS: Plurals<'models'> = {
  en: { models: { one: '{n} model', other: '{n} models' } },
  zh: { models: { other: '{n} 个模型' } },
}
