import { describe, expect, it } from 'vitest'
import { callsOf, nextWords, outcomeWords, worthShowing } from '../../../../../renderer/panels/usage/attempts'
import { STRINGS } from '../../../../../renderer/panels/usage/strings'
import { translate } from '../../../../../renderer/i18n'

describe("the request log's attempt words", () => {
  it.each([
    ['ok', { key: 'at_ok' }],
    ['status 503', { key: 'at_status', vars: { status: '503' } }],
    ['timeout', { key: 'at_timeout' }],
    ['reset', { key: 'at_reset' }],
    ['connect', { key: 'at_connect' }],
    ['malformed', { key: 'at_malformed' }],
    ['empty', { key: 'at_empty' }],
    ['aborted', { key: 'at_aborted' }],
    ['skipped: breaker open', { key: 'at_skipped' }],
    ['something new', { text: 'something new' }],
  ])('outcome %s', (outcome, words) => {
    expect(outcomeWords(outcome)).toEqual(words)
  })

  it.each([
    ['failed over', { key: 'at_failedOver' }],
    ['no account left', { key: 'at_noneLeft' }],
    ['retry in 2000 ms (Retry-After)', { key: 'at_retryAsked', vars: { ms: 2000 } }],
    ['retry in 188 ms (backoff)', { key: 'at_retryBackoff', vars: { ms: 188 } }],
    ['retry budget spent (would wait 34400 ms)', { key: 'at_budgetSpent' }],
    ['retry budget spent (attempts)', { key: 'at_budgetSpent' }],
    ['breaker opened', { key: 'at_breakerOpened' }],
    ['client left', { key: 'at_clientLeft' }],
    ['ended: not an upstream failure', { key: 'at_ended' }],
  ])('next %s', (next, words) => {
    expect(nextWords(next)).toEqual(words)
  })

  it('reads in both languages', () => {
    expect(translate(STRINGS, 'en', 'at_retryAsked', { ms: 2000 })).toBe('retry after 2000 ms, as the upstream asked')
    expect(translate(STRINGS, 'zh', 'at_retryAsked', { ms: 2000 })).toBe('按上游要求 2000 毫秒后重试')
    expect(translate(STRINGS, 'zh', 'at_skipped')).toBe('已跳过：熔断中')
  })

  it('counts the calls made, not the accounts skipped', () => {
    expect(callsOf([
      { account: 'a', model: 'm', outcome: 'skipped: breaker open', ms: 0, next: 'failed over' },
      { account: 'b', model: 'm', outcome: 'status 500', ms: 12, next: 'retry in 188 ms (backoff)' },
      { account: 'b', model: 'm', outcome: 'ok', ms: 30 },
    ])).toBe(2)
  })

  it('shows the detail only when more than one call was made or the only one failed', () => {
    expect(worthShowing([])).toBe(false)
    expect(worthShowing([{ account: 'a', model: 'm', outcome: 'ok', ms: 5 }])).toBe(false)
    expect(worthShowing([{ account: 'a', model: 'm', outcome: 'status 400', ms: 5, next: 'ended: not an upstream failure' }])).toBe(true)
    expect(worthShowing([{ account: 'a', model: 'm', outcome: 'skipped: breaker open', ms: 0, next: 'failed over' }, { account: 'b', model: 'm', outcome: 'ok', ms: 5 }])).toBe(true)
  })
})
