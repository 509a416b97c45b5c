import { chatCompletion, chatCompletionChunk, chatCompletionRequest } from '../../../shared/schemas/chat.js'
import { modelEntry, modelList, pricingList as pricingListSchema, usageReport } from '../../../shared/schemas/common.js'
import type { Route } from '../router.js'
import { chatCompletions } from './chat-completions.js'
import { getModel, listModels } from './models.js'
import { openApiDocument } from './openapi.js'
import { pricingList } from './pricing.js'
import { usage } from './usage.js'

/** Every endpoint of the gateway: the router and /openapi.json both read this one table. */
export const ROUTES: Route[] = [
  {
    method: 'POST', path: '/v1/chat/completions', endpoint: 'chat.completions', protocol: 'chat', auth: 'key',
    groupProtocol: 'chat', concurrency: true, ledger: true, handle: chatCompletions,
    doc: {
      tag: 'Chat', summary: 'Create a chat completion',
      description: 'Spec §4.1. Unknown fields are forwarded unchanged. With `stream: true` the answer is a text/event-stream of chunks ending with `data: [DONE]`; a failure after the stream started arrives as `event: error`.',
      request: { schema: chatCompletionRequest }, response: chatCompletion,
      stream: { schema: chatCompletionChunk, description: 'each `data:` line is a chat.completion.chunk; the last line is `data: [DONE]`' },
    },
  },
  {
    method: 'GET', path: '/v1/models', endpoint: 'models.list', protocol: 'chat', auth: 'key', concurrency: false, ledger: true, handle: listModels,
    doc: { tag: 'Models', summary: 'List the models callable with this key', response: modelList },
  },
  {
    method: 'GET', path: /^\/v1\/models\/([^/]+)$/, docPath: '/v1/models/{model}', endpoint: 'models.retrieve', protocol: 'chat', auth: 'key',
    concurrency: false, ledger: true, handle: getModel,
    doc: { tag: 'Models', summary: 'Retrieve one callable model', response: modelEntry },
  },
  {
    method: 'GET', path: '/v1/usage', endpoint: 'usage', protocol: 'chat', auth: 'bearer', concurrency: false, ledger: true, handle: usage,
    doc: { tag: 'Account', summary: 'Balance and key quota', description: 'Accepts only `Authorization: Bearer`.', response: usageReport },
  },
  {
    method: 'GET', path: '/api/v1/models/pricing', endpoint: 'pricing', protocol: 'chat', auth: 'none', concurrency: false, ledger: false, handle: pricingList,
    doc: { tag: 'Models', summary: 'Public list prices of the catalog', description: 'No key needed.', response: pricingListSchema },
  },
  {
    method: 'GET', path: '/openapi.json', endpoint: 'openapi', protocol: 'chat', auth: 'none', concurrency: false, ledger: false,
    handle: async (ctx) => openApiDocument(ctx, ROUTES),
    doc: { tag: 'Meta', summary: 'This OpenAPI 3.1 description', description: 'No key needed.', response: { type: 'object' } },
  },
]
