import { describe, expect, it } from 'vitest'
import { formatMessage, MESSAGES, type MessageId } from '../../../shared/messages.js'
import { englishWordsIn } from './zh-words.js'

describe('the gateway’s Chinese messages have no English words other than names and codes', () => {
  it('every zh message', () => {
    const found = Object.entries(MESSAGES).flatMap(([id, m]) => englishWordsIn(m.zh).map((w) => `${id}: ${w}`))
    expect(found).toEqual([])
  })

  it('the check finds English prose', () => {
    expect(englishWordsIn('已尝试所有账户（account credentials refused, HTTP 401）')).toEqual(['account', 'credentials', 'refused'])
    expect(englishWordsIn('请发送 `x-api-key` 或 "Authorization: Bearer sk-..."，HTTP 401')).toEqual([])
  })

  it('the upstream message with a worded reason', () => {
    expect(formatMessage('upstream_error' as MessageId, 'zh', { detail: { en: 'timed out', zh: '超时' } })).toBe('已尝试所有账户，模型暂时不可用（超时）。')
  })
})
