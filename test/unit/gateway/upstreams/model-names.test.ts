import { afterEach, describe, expect, it } from 'vitest'
import { fallbackTrigger } from '../../../../electron/gateway/admission.js'
import { applyConfig } from '../../../../electron/gateway/config/apply-config.js'
import { ConfigError, type GatewayConfig } from '../../../../electron/gateway/config/load-config.js'
import { gatewayError } from '../../../../electron/gateway/errors.js'
import { Registry } from '../../../../electron/gateway/registry.js'
import { exhausted } from '../../../../electron/gateway/relay/upstream-failure.js'
import { aesSecretBox } from '../../../../electron/gateway/secrets/secrets.js'
import { createStore } from '../../../../electron/gateway/store/index.js'
import { fromAnthropicError } from '../../../../electron/gateway/upstreams/anthropic.js'
import { fromGeminiError } from '../../../../electron/gateway/upstreams/gemini-chat.js'
import { withGatewayModel } from '../../../../electron/gateway/upstreams/model-names.js'
import { fromOpenAIError } from '../../../../electron/gateway/upstreams/openai-compatible.js'
import { tempDataDir } from '../../../helpers/gateway.js'

describe('answers name the gateway id', () => {
  it('rewrites every string-valued model member, spaced or not, and nothing in content', () => {
    const text = '{"id":"x","model":"my-deployment","choices":[{"delta":{"content":"say \\"model\\":\\"no\\""}}],"response":{"model" : "gpt-5.2-2025-12-11"}}'
    expect(withGatewayModel(text, 'gpt-5.5')).toBe('{"id":"x","model":"gpt-5.5","choices":[{"delta":{"content":"say \\"model\\":\\"no\\""}}],"response":{"model" : "gpt-5.5"}}')
    expect(withGatewayModel('{"a":1}', 'gpt-5.5')).toBe('{"a":1}')
    expect(withGatewayModel('{"model":{"nested":true}}', 'x')).toBe('{"model":{"nested":true}}')
    expect(withGatewayModel('{"model":"a"}', 'id "quoted"')).toBe('{"model":"id \\"quoted\\""}')
  })
})

describe('the error classes that lead to a fallback', () => {
  it.each([
    ['OpenAI', fromOpenAIError(400, JSON.stringify({ error: { message: "This model's maximum context length is 8192 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' } }))],
    ['Zhipu', fromOpenAIError(400, JSON.stringify({ error: { code: '1261', message: 'Prompt exceeds max length' } }))],
    ['Anthropic', fromAnthropicError(400, JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' } }))],
    ['Gemini', fromGeminiError(400, JSON.stringify({ error: { code: 400, message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } }))],
    ['DashScope', fromOpenAIError(400, JSON.stringify({ error: { code: 'invalid_parameter_error', message: '<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 983616]' } }))],
    ['xAI', fromOpenAIError(400, JSON.stringify({ error: { message: "This model's maximum prompt length is 131072 but the request contains 150000 tokens." } }))],
  ])('%s: the prompt is too long → context_length', (_vendor, error) => {
    expect(fallbackTrigger(error)).toBe('context_length')
  })

  it('a content filter, another 400 or a client error never falls back', () => {
    expect(fallbackTrigger(fromOpenAIError(400, JSON.stringify({ error: { message: 'Your request was rejected as a result of our safety system.', code: 'content_policy_violation' } })))).toBeUndefined()
    expect(fallbackTrigger(fromOpenAIError(400, JSON.stringify({ error: { message: 'Invalid value for temperature', code: 'invalid_value' } })))).toBeUndefined()
    expect(fallbackTrigger(gatewayError('client_closed_request', 'client_closed_request'))).toBeUndefined()
    expect(fallbackTrigger(new Error('boom'))).toBeUndefined()
  })

  it('exhausted accounts: 429s are rate_limited; 5xx, overload and timeouts unavailable', () => {
    const status = (n: number) => ({ kind: 'status' as const, status: n, error: fromOpenAIError(n, '{}') })
    expect(fallbackTrigger(exhausted(status(429)))).toBe('rate_limited')
    expect(fallbackTrigger(exhausted(status(503)))).toBe('unavailable')
    expect(fallbackTrigger(exhausted(status(529)))).toBe('unavailable')
    expect(fallbackTrigger(exhausted(status(500)))).toBe('unavailable')
    expect(fallbackTrigger(exhausted({ kind: 'transport', reason: 'timeout' }))).toBe('unavailable')
    expect(fallbackTrigger(exhausted({ kind: 'transport', reason: 'connect' }))).toBe('unavailable')
  })
})

describe('config: account model names and fallbacks', () => {
  let cleanup: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c()
    cleanup = []
  })
  const open = async () => {
    const dir = tempDataDir()
    const store = createStore(dir.dir, () => {})
    cleanup.push(dir.remove, () => store.close())
    const secrets = aesSecretBox(Buffer.alloc(32, 3))
    const registry = await Registry.open(store, secrets)
    const apply = (config: GatewayConfig) => applyConfig(config, store, secrets, registry.builtinModels, registry.keyHasher)
    return { store, registry, apply }
  }
  const refused = async (run: Promise<unknown>) => {
    const err = await run.then(() => undefined, (e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    return (err as ConfigError).message
  }
  const token = { unit: 'token' as const, input: 1, output: 2 }

  it('keeps only the names that differ from the ids; the array form maps nothing', async () => {
    const { registry, apply } = await open()
    await apply({
      models: [{ id: 'gpt-5.5', fallbacks: [{ model: 'gpt-5.4-mini', on: ['unavailable'] }] }],
      upstreams: [
        { id: 'azure', vendor: 'openai', baseUrl: 'https://x.example/v1', apiKey: 'k', models: { 'gpt-5.5': 'my-deployment', 'gpt-5.4-mini': 'gpt-5.4-mini' } },
        { id: 'plain', vendor: 'openai', baseUrl: 'https://y.example/v1', apiKey: 'k', models: ['gpt-5.5'] },
      ],
    })
    await registry.reload()
    const azure = registry.upstreams.get('azure')!
    expect([[...azure.models!], [...azure.modelNames!]]).toEqual([['gpt-5.5', 'gpt-5.4-mini'], [['gpt-5.5', 'my-deployment']]])
    expect(registry.upstreams.get('plain')!.modelNames).toBeUndefined()
    // A row naming a built-in model's fallbacks keeps the rest of its entry.
    const model = registry.catalog.get('gpt-5.5')!
    expect([model.fallbacks, model.family, model.pricing]).toEqual([[{ model: 'gpt-5.4-mini', on: ['unavailable'] }], registry.builtinModels.find((m) => m.id === 'gpt-5.5')!.family, registry.builtinModels.find((m) => m.id === 'gpt-5.5')!.pricing])
  })

  it('names the field of an unknown mapped model, an unknown or self fallback, and a new model without family', async () => {
    const { apply } = await open()
    expect(await refused(apply({ upstreams: [{ id: 'a', vendor: 'openai', baseUrl: 'https://x.example', apiKey: 'k', models: { nope: 'x' } }] })))
      .toBe('invalid config: upstreams[0].models.nope: unknown model "nope"')
    expect(await refused(apply({ models: [{ id: 'gpt-5.5', fallbacks: [{ model: 'nope', on: ['unavailable'] }] }] })))
      .toBe('invalid config: models[0].fallbacks[0].model: unknown model "nope"')
    expect(await refused(apply({ models: [{ id: 'gpt-5.5', fallbacks: [{ model: 'gpt-5.5', on: ['context_length'] }] }] })))
      .toBe('invalid config: models[0].fallbacks[0].model: "gpt-5.5" cannot fall back to itself')
    expect(await refused(apply({ models: [{ id: 'brand-new', vendor: 'openai', pricing: token }] })))
      .toBe('invalid config: models[0].family: is required for a model that is not in the built-in catalog')
  })
})
