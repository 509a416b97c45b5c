import { describe, expect, it } from 'vitest'
import { placedHold } from '../../../../electron/gateway/billing/holds.js'
import type { UpstreamAccount } from '../../../../electron/gateway/contract/accounts.js'
import { gatewayError } from '../../../../electron/gateway/errors.js'

const account = (id: string, budgetNano: number | null) => ({ id, budgetNano, spentNano: 0 }) as unknown as UpstreamAccount

/** A hold whose store moves are recorded; `room` says what each account has left (undefined: it takes the hold). */
function hold(room: Record<string, number | undefined> = {}) {
  const moves: string[] = []
  const placed = placedHold(
    'req-1', 500,
    async (_id, upstreamId) => {
      moves.push(upstreamId)
      return room[upstreamId]
    },
    (upstream, left) => gatewayError('insufficient_quota', 'request_reservation_upstream', { amount: '1', available: String(left), model: 'm', accounts: upstream.id, fit: { en: '', zh: '' } }),
    (upstream) => upstream.budgetNano === null,
  )
  return { placed, moves }
}

describe('placedHold', () => {
  it('onto accounts without a budget, from none with one: no store move at all', async () => {
    const { placed, moves } = hold()
    expect(await placed.onUpstream(account('free-a', null))).toBeUndefined()
    expect(await placed.onUpstream(account('free-b', null))).toBeUndefined()
    expect(moves).toEqual([])
  })

  it('onto an account with a budget: moved in the store, and moved off it again even onto one without', async () => {
    const { placed, moves } = hold()
    expect(await placed.onUpstream(account('free', null))).toBeUndefined()
    expect(await placed.onUpstream(account('budgeted', 10_000))).toBeUndefined()
    // The budgeted account must stop counting it: the store moves it onto the next account.
    expect(await placed.onUpstream(account('free', null))).toBeUndefined()
    expect(moves).toEqual(['budgeted', 'free'])
    // Onto the account it is on: nothing.
    expect(await placed.onUpstream(account('free', null))).toBeUndefined()
    expect(moves).toEqual(['budgeted', 'free'])
  })

  it('an account whose budget has no room refuses with what is left; the hold stays where it was', async () => {
    const { placed, moves } = hold({ tight: 120 })
    const refusal = await placed.onUpstream(account('tight', 1_000))
    expect(refusal).toMatchObject({ status: 402, code: 'insufficient_quota' })
    expect(moves).toEqual(['tight'])
    // Never stored on an account with a budget: the next account without one needs no move.
    expect(await placed.onUpstream(account('free', null))).toBeUndefined()
    expect(moves).toEqual(['tight'])
  })
})
