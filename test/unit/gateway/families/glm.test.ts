import { describe, expect, it } from 'vitest'
import { isCallable, loadBuiltinModels } from '../../../../electron/gateway/catalog/catalog.js'
import { GatewayError } from '../../../../electron/gateway/errors.js'
import type { ChatRule } from '../../../../electron/gateway/contract/family.js'
import {
  defaultToolChoiceAuto,
  glmRules,
  toolResultsMatchCalls,
} from '../../../../electron/gateway/families/glm.js'
import { glmFlashRules, toolStreamBoolean } from '../../../../electron/gateway/families/glm-flash.js'
import { contentKindRule, maxTokensRule, reasoningEffortRule } from '../../../../electron/gateway/families/kit/rule-helpers.js'
import type { CatalogModel } from '../../../../shared/types.js'
import { thrownBy } from '../../../helpers/thrown.js'

type Obj = Record<string, any>

const models = loadBuiltinModels().filter(isCallable)
const glmModels = models.filter((m) => m.family === 'glm')
const flashModels = models.filter((m) => m.family === 'glm-flash')
const glmText = glmModels.find((m) => Array.isArray(m.input) && m.input.length === 1 && m.input[0] === 'text')!
const glmFlash = flashModels[0]!

/** A synthetic GLM-like model for edge cases that the catalog does not hold. */
const synthetic = (over: Partial<CatalogModel>): CatalogModel =>
  ({
    id: 'glm-synthetic', family: 'glm', type: 'chat', vendor: 'zhipu', created: 0,
    pricing: { unit: 'token', input: 1, output: 1 }, input: ['text'], reasoningEffort: ['low', 'high', 'max'],
    thinkingAlwaysOn: true, limits: { maxOutputTokens: 100 }, ...over,
  }) as CatalogModel

const apply = (rules: ChatRule[], body: Obj, model: CatalogModel): Obj => rules.reduce<Obj>((b, rule) => rule(b, model), body)
const chat = (extra: Obj = {}, messages: Obj[] = [{ role: 'user', content: 'hi' }]): Obj => ({ model: 'm', messages, ...extra })


function expect400(err: GatewayError, en: string, param: string) {
  expect(err.status).toBe(400)
  expect(err.code).toBe('invalid_request')
  expect(err.type).toBe('invalid_request_error')
  expect(err.localized('en')).toBe(en)
  expect(err.param).toBe(param)
  expect(err.localized('zh')).not.toBe(en)
}

describe('the catalog holds what the GLM rules read', () => {
  it('has a text-only glm model and glm-flash models with reasoningEffort and maxOutputTokens', () => {
    expect(glmText).toBeDefined()
    expect(glmText.limits?.maxOutputTokens).toBe(131072)
    expect(glmFlash).toBeDefined()
    for (const m of [...glmModels, ...flashModels]) {
      expect(m.reasoningEffort).toEqual(['low', 'high', 'max'])
      expect(m.thinkingAlwaysOn).toBe(true)
      expect(m.limits?.maxOutputTokens).toBeGreaterThan(0)
    }
  })
})

describe('GLM text model: text only', () => {
  const parts: Array<[string, Obj]> = [
    ['image_url', { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
    ['video_url', { type: 'video_url', video_url: { url: 'https://example.com/a.mp4' } }],
    ['file', { type: 'file', file: { file_id: 'f1' } }],
    ['input_audio', { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }],
    ['made_up', { type: 'made_up' }],
  ]
  it.each(parts)('a %s part answers 400', (type, part) => {
    const body = chat({}, [{ role: 'system', content: 'be brief' }, { role: 'user', content: [{ type: 'text', text: 'look' }, part] }])
    const err = thrownBy(() => apply(glmRules, body, glmText))
    expect400(err, `The model \`${glmText.id}\` does not accept \`${type}\` content parts; it reads only: text.`, 'messages[1].content[1].type')
  })
  it('string content and text parts pass unchanged', () => {
    const body = chat({}, [{ role: 'user', content: 'a' }, { role: 'user', content: [{ type: 'text', text: 'b' }] }])
    expect(apply(glmRules, body, glmText)).toEqual(body)
  })
  it('is read from the catalog `input`, not the model id', () => {
    const vision = synthetic({ input: ['text', 'image'] })
    const body = chat({}, [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }])
    expect(contentKindRule(true)(body, vision)).toBe(body)
    expect(() => contentKindRule(true)(body, synthetic({ input: ['text'] }))).toThrow(GatewayError)
    expect(contentKindRule(true)(body, synthetic({ input: undefined }))).toBe(body)
  })
})

describe.each([
  ['glm', glmRules, glmModels],
  ['glm-flash', glmFlashRules, flashModels],
] as const)('%s: max_tokens range from limits.maxOutputTokens', (_, rules, familyModels) => {
  const cases = familyModels.flatMap((m) => {
    const max = m.limits!.maxOutputTokens!
    return ['max_tokens', 'max_completion_tokens'].flatMap((field) => [
      [m.id, field, 1, true], [m.id, field, max, true],
      [m.id, field, max + 1, false], [m.id, field, 0, false], [m.id, field, -5, false], [m.id, field, 1.5, false], [m.id, field, '100', false],
    ] as Array<[string, string, unknown, boolean]>)
  })
  it.each(cases)('%s %s = %j passes: %s', (id, field, value, ok) => {
    const model = familyModels.find((m) => m.id === id)!
    const body = chat({ [field]: value })
    if (ok) return expect(apply(rules, body, model)[field]).toBe(value)
    const err = thrownBy(() => apply(rules, body, model))
    expect400(err, `${field} invalid, allowed range [1,${model.limits!.maxOutputTokens}]`, field)
  })
  it('null or absent max_tokens is not checked', () => {
    expect(apply(rules, chat({ max_tokens: null }), familyModels[0])).toEqual(chat({ max_tokens: null }))
    expect(apply(rules, chat(), familyModels[0])).toEqual(chat())
  })
})

describe('max_tokens message format (spec §4.1 exact text)', () => {
  it('matches "max_tokens invalid, allowed range [1,131072]" for the GLM text model', () => {
    const err = thrownBy(() => apply(glmRules, chat({ max_tokens: 131073 }), glmText))
    expect(err.localized('en')).toBe('max_tokens invalid, allowed range [1,131072]')
    expect(err.localized('zh')).toBe('max_tokens 无效，允许范围 [1,131072]')
  })
  it('takes the bound from the model (synthetic limit 100)', () => {
    const rule = maxTokensRule('glm_max_tokens_range')
    expect(rule(chat({ max_tokens: 100 }), synthetic({}))).toEqual(chat({ max_tokens: 100 }))
    expect(thrownBy(() => rule(chat({ max_tokens: 101 }), synthetic({}))).localized('en')).toBe('max_tokens invalid, allowed range [1,100]')
    expect(rule(chat({ max_tokens: 10 ** 9 }), synthetic({ limits: {} }))).toEqual(chat({ max_tokens: 10 ** 9 }))
  })
})

describe.each([
  ['glm', glmRules, glmText],
  ['glm-flash', glmFlashRules, glmFlash],
] as const)('%s: reasoning_effort', (_, rules, model) => {
  it.each(['low', 'high', 'max'])('%s passes unchanged', (effort) => {
    expect(apply(rules, chat({ reasoning_effort: effort }), model).reasoning_effort).toBe(effort)
  })
  it.each(['none', 'minimal'])('%s would disable thinking: 400', (effort) => {
    const err = thrownBy(() => apply(rules, chat({ reasoning_effort: effort }), model))
    expect400(
      err,
      `Thinking cannot be disabled for the model \`${model.id}\` (reasoning_effort \`${effort}\`): it always thinks. Allowed reasoning_effort values: low, high, max.`,
      'reasoning_effort',
    )
  })
  it.each(['medium', 'HIGH', 'xhigh', ''])('%j is not an allowed value: 400 listing them', (effort) => {
    const err = thrownBy(() => apply(rules, chat({ reasoning_effort: effort }), model))
    expect400(err, `reasoning_effort \`${effort}\` is not supported by the model \`${model.id}\`; allowed values: low, high, max.`, 'reasoning_effort')
  })
  it('thinking {type: "disabled"} is refused too; enabled passes', () => {
    const err = thrownBy(() => apply(rules, chat({ thinking: { type: 'disabled' } }), model))
    expect400(
      err,
      `Thinking cannot be disabled for the model \`${model.id}\` (thinking.type \`disabled\`): it always thinks. Allowed reasoning_effort values: low, high, max.`,
      'thinking.type',
    )
    expect(apply(rules, chat({ thinking: { type: 'enabled' } }), model).thinking).toEqual({ type: 'enabled' })
  })
  it('absent or null reasoning_effort is not checked', () => {
    expect(apply(rules, chat({ reasoning_effort: null }), model).reasoning_effort).toBeNull()
    expect(apply(rules, chat(), model)).not.toHaveProperty('reasoning_effort')
  })
})

describe('reasoning_effort rule reads the catalog fields', () => {
  it('a model that may stop thinking gets the generic message for none', () => {
    const model = synthetic({ reasoningEffort: ['low', 'high'], thinkingAlwaysOn: false })
    expect(thrownBy(() => reasoningEffortRule(chat({ reasoning_effort: 'none' }), model)).localized('en'))
      .toBe('reasoning_effort `none` is not supported by the model `glm-synthetic`; allowed values: low, high.')
    expect(reasoningEffortRule(chat({ thinking: { type: 'disabled' } }), model)).toEqual(chat({ thinking: { type: 'disabled' } }))
  })
  it('a model without reasoningEffort forwards any value', () => {
    const model = synthetic({ reasoningEffort: undefined, thinkingAlwaysOn: undefined })
    expect(reasoningEffortRule(chat({ reasoning_effort: 'whatever' }), model)).toEqual(chat({ reasoning_effort: 'whatever' }))
  })
})

const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }]

describe('glm: tool_choice defaults to auto', () => {
  it('is set when tools are sent without tool_choice (a new body; the input is not mutated)', () => {
    const body = chat({ tools })
    const out = apply(glmRules, body, glmText)
    expect(out.tool_choice).toBe('auto')
    expect(out.tools).toBe(tools)
    expect(body).not.toHaveProperty('tool_choice')
  })
  it('a null tool_choice counts as absent', () => {
    expect(defaultToolChoiceAuto(chat({ tools, tool_choice: null }), glmText).tool_choice).toBe('auto')
  })
  it.each<[string, unknown]>([['none', 'none'], ['required', 'required'], ['a function', { type: 'function', function: { name: 'get_weather' } }]])(
    'an explicit %s is kept',
    (_, choice) => {
      expect(apply(glmRules, chat({ tools, tool_choice: choice }), glmText).tool_choice).toEqual(choice)
    },
  )
  it.each<[string, Obj]>([['no tools', {}], ['an empty tools array', { tools: [] }]])('is not added with %s', (_, extra) => {
    expect(apply(glmRules, chat(extra), glmText)).not.toHaveProperty('tool_choice')
  })
  it('is not a glm-flash rule', () => {
    expect(apply(glmFlashRules, chat({ tools }), glmFlash)).not.toHaveProperty('tool_choice')
  })
})

describe('glm: tool results must match a previous call', () => {
  const call = (id: string) => ({ id, type: 'function', function: { name: 'get_weather', arguments: '{}' } })
  const user = { role: 'user', content: 'weather?' }
  const cases: Array<[string, Obj[], string | null]> = [
    ['a matching id', [user, { role: 'assistant', content: null, tool_calls: [call('call_1')] }, { role: 'tool', tool_call_id: 'call_1', content: 'sunny' }], null],
    ['two calls answered', [user, { role: 'assistant', tool_calls: [call('a'), call('b')] }, { role: 'tool', tool_call_id: 'b', content: '1' }, { role: 'tool', tool_call_id: 'a', content: '2' }], null],
    ['an id from an earlier turn', [user, { role: 'assistant', tool_calls: [call('old')] }, { role: 'tool', tool_call_id: 'old', content: 'x' }, user, { role: 'assistant', tool_calls: [call('new')] }, { role: 'tool', tool_call_id: 'old', content: 'x' }], null],
    ['an unknown id', [user, { role: 'assistant', tool_calls: [call('call_1')] }, { role: 'tool', tool_call_id: 'call_2', content: 'x' }], 'call_2'],
    ['no assistant call at all', [user, { role: 'tool', tool_call_id: 'call_9', content: 'x' }], 'call_9'],
    ['a call made only after the result', [user, { role: 'tool', tool_call_id: 'late', content: 'x' }, { role: 'assistant', tool_calls: [call('late')] }], 'late'],
    ['an id of a user message', [{ role: 'user', content: 'x', tool_calls: [call('u1')] }, { role: 'tool', tool_call_id: 'u1', content: 'x' }], 'u1'],
  ]
  it.each(cases)('%s', (_, messages, badId) => {
    const body = chat({}, messages)
    if (badId === null) return expect(apply(glmRules, body, glmText)).toEqual(body)
    const index = messages.findIndex((m) => m.role === 'tool' && m.tool_call_id === badId)
    const err = thrownBy(() => apply(glmRules, body, glmText))
    expect400(err, "No tool call found for function call output", `messages[${index}].tool_call_id`)
    expect(err.localized('en').startsWith('No tool call found for function call output')).toBe(true)
  })
  it('a tool message without tool_call_id answers 400 (missing field)', () => {
    const err = thrownBy(() => toolResultsMatchCalls(chat({}, [user, { role: 'tool', content: 'x' }]), glmText))
    expect400(err, 'missing messages[1].tool_call_id field', 'messages[1].tool_call_id')
  })
})

describe('glm-flash: tool_stream', () => {
  it.each([true, false])('%s is forwarded as sent', (value) => {
    expect(apply(glmFlashRules, chat({ stream: true, tools, tool_stream: value }), glmFlash).tool_stream).toBe(value)
  })
  it.each<[string, unknown]>([['a string', 'true'], ['a number', 1], ['an object', {}], ['an array', [true]]])('%s answers 400', (_, value) => {
    const err = thrownBy(() => apply(glmFlashRules, chat({ tool_stream: value }), glmFlash))
    expect400(err, 'tool_stream: must be a boolean (true or false)', 'tool_stream')
  })
  it('null is removed (upstream default), absent stays absent', () => {
    expect(toolStreamBoolean(chat({ tool_stream: null }), glmFlash)).toEqual(chat())
    expect(apply(glmFlashRules, chat(), glmFlash)).toEqual(chat())
  })
  it('glm-flash reads images, video and files (catalog input)', () => {
    const body = chat({}, [{ role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: 'https://x/y.png' } }, { type: 'video_url', video_url: { url: 'https://x/y.mp4' } }, { type: 'file', file: {} }] }])
    expect(apply(glmFlashRules, body, glmFlash)).toEqual(body)
  })
  it('temperature and top_p have no gateway range', () => {
    expect(apply(glmFlashRules, chat({ temperature: 1.7, top_p: 0.95 }), glmFlash)).toEqual(chat({ temperature: 1.7, top_p: 0.95 }))
  })
})

describe('rule order: the first failing rule answers', () => {
  it('an image part is reported before a bad max_tokens', () => {
    const body = chat({ max_tokens: 0 }, [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x' } }] }])
    expect(thrownBy(() => apply(glmRules, body, glmText)).param).toBe('messages[0].content[0].type')
  })
  it('a valid full request passes with only tool_choice added', () => {
    const messages = [
      { role: 'system', content: 'sys' }, { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ]
    const body = chat({ max_tokens: 131072, reasoning_effort: 'max', tools, stream: true }, messages)
    expect(apply(glmRules, body, glmText)).toEqual({ ...body, tool_choice: 'auto' })
  })
})
