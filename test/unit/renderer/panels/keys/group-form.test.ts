import { describe, expect, it } from 'vitest'
import {
  EMPTY_GROUP_FORM, groupCreateBody, groupFormOf, groupFormProblem, groupPatchBody, moveItem, selectableModels, toggle, type CatalogEntry,
} from '../../../../../renderer/panels/keys/group-form'

const CATALOG: CatalogEntry[] = [
  { model: 'gpt-5.2', type: 'chat', family: 'gpt', vendor: 'openai' },
  { model: 'claude-sonnet-4-5', type: 'chat', family: 'claude', vendor: 'anthropic' },
  { model: 'claude-old', type: 'chat', family: 'claude', vendor: 'anthropic', deprecated: true },
  { model: 'gpt-image-1', type: 'image', family: 'gpt-image', vendor: 'openai' },
  { model: 'kling-v3', type: 'video', family: 'kling-video', vendor: 'kling' },
]

describe('group forms', () => {
  it('builds the create and patch bodies', () => {
    const form = { ...EMPTY_GROUP_FORM, id: ' team ', name: ' Team ', models: ['gpt-5.2'], upstreams: ['openai-1'] }
    expect(groupFormProblem(EMPTY_GROUP_FORM)).toBe('id')
    expect(groupFormProblem(form)).toBe(null)
    expect(groupCreateBody(form)).toEqual({ id: 'team', name: 'Team', protocol: 'chat', models: ['gpt-5.2'], upstreams: ['openai-1'], continuation: false })
    expect(groupCreateBody({ ...form, name: '' })).not.toHaveProperty('name')
    expect(groupPatchBody(form)).toEqual({ name: 'Team', models: ['gpt-5.2'], upstreams: ['openai-1'], continuation: false })
    // continuation is off unless switched on, and saved either way
    expect(groupPatchBody({ ...form, continuation: true })).toEqual({ name: 'Team', models: ['gpt-5.2'], upstreams: ['openai-1'], continuation: true })
    expect(groupCreateBody({ ...form, continuation: true })).toMatchObject({ continuation: true })
  })

  it('fills the form from a group', () => {
    const g = { id: 'g', name: null, protocol: 'messages' as const, models: ['a'], upstreams: ['u'], images: {}, continuation: false, keyCount: 0 }
    expect(groupFormOf(g)).toEqual({ id: 'g', name: '', protocol: 'messages', models: ['a'], upstreams: ['u'], continuation: false })
    expect(groupFormOf({ ...g, continuation: true }).continuation).toBe(true)
  })

  it('moves accounts in the failover order', () => {
    expect(moveItem(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c'])
    expect(moveItem(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b'])
    const list = ['a', 'b']
    expect(moveItem(list, 0, -1)).toBe(list)
    expect(moveItem(list, 1, 1)).toBe(list)
  })

  it('toggles models', () => {
    expect(toggle(['a'], 'b')).toEqual(['a', 'b'])
    expect(toggle(['a', 'b'], 'a')).toEqual(['b'])
  })

  it('offers the models the protocol can serve, by type, without deprecated ids unless chosen', () => {
    const chat = selectableModels(CATALOG, 'chat', [], '')
    expect([...chat.keys()]).toEqual(['chat', 'image', 'video'])
    expect(chat.get('chat')!.map((m) => m.model)).toEqual(['gpt-5.2', 'claude-sonnet-4-5'])
    const messages = selectableModels(CATALOG, 'messages', ['claude-old'], '')
    expect([...messages.keys()]).toEqual(['chat'])
    expect(messages.get('chat')!.map((m) => m.model)).toEqual(['claude-sonnet-4-5', 'claude-old'])
    expect(selectableModels(CATALOG, 'chat', [], 'KLING').get('video')!.map((m) => m.model)).toEqual(['kling-v3'])
  })
})
