import type { Strings } from '../i18n'

/** The empty states' text: what is missing, and the button to the step that fills it. */
export const NEXT_STEP_STRINGS: Strings<'noAccount' | 'noAccountGroup' | 'addAccount' | 'noAccountsAtAll' | 'guidedSetup' | 'usageEmpty'> = {
  en: {
    noAccount: 'Nothing to call yet: the gateway has no upstream account. Add one to start.',
    noAccountGroup: 'This group has no upstream account, so it has no models to call yet.',
    addAccount: 'Add an upstream account',
    noAccountsAtAll: 'No upstream account yet. The guided setup adds one, tests it and gives its models to your groups.',
    guidedSetup: 'Guided setup',
    usageEmpty: 'No usage yet: add an upstream account, then send a first message.',
  },
  zh: {
    noAccount: '还没有可调用的内容：网关尚无上游账号。请先添加一个。',
    noAccountGroup: '此分组还没有上游账号，因此暂无可调用的模型。',
    addAccount: '添加上游账号',
    noAccountsAtAll: '还没有上游账号。引导设置会添加一个账号、测试连接，并把它的模型分配给你的分组。',
    guidedSetup: '引导设置',
    usageEmpty: '暂无用量：请先添加上游账号，再发送第一条消息。',
  },
}
