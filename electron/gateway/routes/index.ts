import { chatCompletion, chatCompletionChunk, chatCompletionRequest } from '../../../shared/schemas/chat.js'
import { modelEntry, modelList, pricingList as pricingListSchema, usageReport } from '../../../shared/schemas/common.js'
import { countTokensRequest, messageObject, messagesRequest, messageStreamEvent, tokenCount } from '../../../shared/schemas/messages.js'
import { responseObject, responsesRequest, responseStreamEvent } from '../../../shared/schemas/responses.js'
import { speechAudio, speechRequest } from '../../../shared/schemas/speech.js'
import { interactionEvent, interactionObject, interactionRequest } from '../../../shared/schemas/interactions.js'
import { imageEditRequest, imageGenerationRequest } from '../../../shared/schemas/images.js'
import { imageSchemaIndex } from '../families/image-schemas.js'
import { imageTaskObject, imagesResponse, taskAccepted } from '../../../shared/schemas/image-responses.js'
import type { Route } from '../router.js'
import { ADMIN_ROUTES } from './admin.js'
import { chatCompletions } from './chat-completions.js'
import { countTokens, messages } from './messages.js'
import { responses } from './responses.js'
import { speech } from './speech.js'
import { interactions } from './interactions.js'
import { imageEdits, imageGenerations, imageTask } from './images.js'
import { sendJson } from '../respond.js'
import { getModel, listModels } from './models.js'
import { openApiDocument } from './openapi.js'
import { pricingList } from './pricing.js'
import { usage } from './usage.js'
import { metrics } from './metrics.js'
import { nativeVideoRequest, nativeTaskAnswer, videoContent as videoContentSchema, videoGenerateRequest, videoTaskObject } from '../../../shared/schemas/video.js'
import { nativeVideoSynthesis, nativeVideoTask, videoContent, videoGenerate, videoTask } from './video.js'
import { quoteObject, quoteRequest } from '../../../shared/schemas/quote.js'
import { quote } from './quote.js'

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
    method: 'POST', path: '/v1/responses', endpoint: 'responses', protocol: 'chat', auth: 'key',
    groupProtocol: 'chat', concurrency: true, ledger: true, handle: responses,
    doc: {
      tag: 'Chat', summary: 'Create a response (Responses protocol)',
      description: 'Relayed to OpenAI-compatible accounts. Not available for the model families whose catalog entry lacks the `responses` endpoint. A stream that breaks after it started ends with `event: response.failed`.',
      request: { schema: responsesRequest }, response: responseObject,
      stream: { schema: responseStreamEvent, description: 'events with `event:` lines equal to the payload `type`, ending with response.completed, response.incomplete or response.failed' },
    },
  },
  {
    method: 'POST', path: '/v1/messages', endpoint: 'messages', protocol: 'messages', auth: 'key',
    groupProtocol: 'messages', concurrency: true, ledger: true, handle: messages,
    doc: {
      tag: 'Messages', summary: 'Create a message (Messages protocol)',
      description: 'For keys of a messages-protocol group; SDKs take the base URL without /v1. `anthropic-version` and `anthropic-beta` pass through. Errors are `{type:"error", error:{type, message}}`; a stream that breaks after it started ends with `event: error`.',
      request: { schema: messagesRequest }, response: messageObject,
      stream: { schema: messageStreamEvent, description: 'events message_start, content_block_start/delta/stop, message_delta, message_stop (ping may appear anywhere)' },
    },
  },
  {
    method: 'POST', path: '/v1/messages/count_tokens', endpoint: 'messages.count_tokens', protocol: 'messages', auth: 'key',
    groupProtocol: 'messages', concurrency: true, ledger: true, handle: countTokens,
    doc: { tag: 'Messages', summary: 'Count the input tokens of a message', description: 'Free; holds a concurrency slot while it runs.', request: { schema: countTokensRequest }, response: tokenCount },
  },
  {
    method: 'POST', path: '/v1/audio/speech', endpoint: 'audio.speech', protocol: 'chat', auth: 'key',
    groupProtocol: 'chat', concurrency: true, ledger: true, handle: speech,
    doc: {
      tag: 'Audio', summary: 'Speak text (text to speech)',
      description: 'The audio is streamed back as the model produces it, with the upstream\'s audio content type. Billed per input character.',
      request: { schema: speechRequest }, response: speechAudio, responseContentType: 'audio/mpeg',
    },
  },
  {
    method: 'POST', path: '/v1beta/interactions', endpoint: 'interactions', protocol: 'chat', auth: 'key',
    groupProtocol: 'chat', concurrency: true, ledger: true, handle: interactions,
    doc: {
      tag: 'Interactions', summary: 'Create an interaction (Gemini Interactions API)',
      description: 'The full multimodal API of the omni model, relayed to Gemini accounts. A stream that breaks after it started ends with a `{"event_type":"error"}` event.',
      request: { schema: interactionRequest }, response: interactionObject,
      stream: { schema: interactionEvent, description: 'data-only events with `event_type`, ending with interaction.completed and `data: [DONE]`' },
    },
  },
  {
    method: 'POST', path: '/v1/images/generations', endpoint: 'images.generations', protocol: 'chat', auth: 'key',
    groupProtocol: 'chat', concurrency: true, ledger: true, handle: imageGenerations,
    doc: {
      tag: 'Images', summary: 'Generate images',
      description: 'Spec §4.2. Every rule is checked before any upstream call (400, not billed); each model\'s own body schema is at /spec/models/index.json. `Prefer: respond-async` answers 202 with a task for GPT-style and Gemini-style models. `stream: true` answers the gateway images SSE: keepalive comments, then one `data:` event with the images JSON, then `data: [DONE]`.',
      request: { schema: imageGenerationRequest }, response: imagesResponse,
      responses: { '202': { description: 'Accepted (`Prefer: respond-async`): the task; poll its status_url', schema: taskAccepted } },
      stream: { schema: imagesResponse, description: 'keepalive comments while the images are made; the last data event is the images JSON; then [DONE]' },
    },
  },
  {
    method: 'POST', path: '/v1/images/edits', endpoint: 'images.edits', protocol: 'chat', auth: 'key',
    groupProtocol: 'chat', concurrency: true, ledger: true, handle: imageEdits,
    doc: {
      tag: 'Images', summary: 'Edit images',
      description: 'multipart/form-data (`image` or `image[]` files, repeated, and `mask`) or JSON with http(s) or data URLs. The mask is scaled to the first reference image and sent as a PNG with alpha.',
      request: { schema: imageEditRequest, contentType: 'multipart/form-data' }, response: imagesResponse,
      responses: { '202': { description: 'Accepted (`Prefer: respond-async`): the task; poll its status_url', schema: taskAccepted } },
    },
  },
  {
    method: 'GET', path: '/v1/images/tasks', endpoint: 'images.tasks', protocol: 'chat', auth: 'key',
    concurrency: false, ledger: false, handle: imageTask,
    doc: {
      tag: 'Images', summary: 'Poll an async image task', description: 'Holds no concurrency slot. Only the key that submitted the task sees it.',
      query: [{ name: 'task_id', required: true, description: 'the task_id of the 202 answer' }], response: imageTaskObject,
    },
  },
  {
    method: 'POST', path: '/v1/video/generate', endpoint: 'video.generate', protocol: 'chat', auth: 'key',
    groupProtocol: 'chat', concurrency: true, ledger: true, handle: videoGenerate,
    doc: {
      tag: 'Video', summary: 'Submit a video (any video family)',
      description: 'One body for Seedance-, Kling-, Hailuo-, Wan- and Grok-style models: `prompt`, pictures with a role (`images`, or `first_frame` / `last_frame` / `reference_images`), `duration`, `resolution`, `aspect_ratio`, `seed`; every other field is forwarded to the vendor unchanged. Values outside the model\'s catalog lists answer 400 before anything is held. '
        + '**Answers 202 Accepted** with the task (`task_id`, `status_url`) once the vendor took it; holds a concurrency slot only while submitting. '
        + '**Money**: the submission reserves the task\'s largest possible cost (price at the requested resolution, or the dearest when none is asked, × the requested duration, or the model\'s longest clip); 402 `insufficient_quota` when the balance less every reservation cannot cover it, before any vendor call. Success bills the seconds the vendor reports producing (never more than reserved) and releases the reservation; failure and cancellation release it unbilled. Settlement and release happen once, also across restarts. '
        + '**Duplicates (spec §7 rule 5)**: the same key sending the same body within 10 minutes gets the earlier task back (HTTP 200, `idempotent_replay: true`, header `Idempotent-Replayed: true`) instead of a second billed task, unless that task failed. With an `Idempotency-Key` header (1–255 printable ASCII) only the key decides, for 24 hours: the same key answers its task; the same key with a different body is 422 `idempotency_key_reused`.',
      request: { schema: videoGenerateRequest }, response: videoTaskObject,
      responses: { '202': { description: 'Accepted: the new task (200 answers an earlier task again, with `idempotent_replay: true`)', schema: videoTaskObject } },
      moreErrors: { '422': 'The Idempotency-Key came before with another body (`idempotency_key_reused`)' },
    },
  },
  {
    method: 'GET', path: /^\/v1\/video\/tasks\/([^/]+)$/, docPath: '/v1/video/tasks/{task_id}', endpoint: 'video.tasks', protocol: 'chat', auth: 'key',
    concurrency: false, ledger: false, handle: videoTask,
    doc: {
      tag: 'Video', summary: 'Poll a video task',
      description: 'Holds no concurrency slot and makes no vendor call: a background poller follows every task (concurrently, with backoff, resumed after a restart) and this answers its stored state. Statuses: queued, running, succeeded, failed, canceled; each vendor\'s words are mapped to these, and an unknown word counts as running. `progress` where the vendor reports it. Once succeeded, `result.videos[].url` is the vendor\'s link and `content_url` the gateway\'s saved copy (after the download). A poll that times out or errors never fails a task. Only the submitting key sees the task (404 `task_not_found`).',
      response: videoTaskObject,
    },
  },
  {
    method: 'GET', path: /^\/v1\/video\/tasks\/([^/]+)\/content$/, docPath: '/v1/video/tasks/{task_id}/content', endpoint: 'video.content', protocol: 'chat', auth: 'key',
    concurrency: false, ledger: false, handle: videoContent,
    doc: {
      tag: 'Video', summary: 'Fetch the saved copy of a finished video',
      description: 'A succeeded task\'s video, downloaded into the data dir so it still plays after the vendor\'s link expired. `?index=n` for the n-th video (default 0). Honours `Range` (206). 404 `video_content_not_available` until the download finished.',
      query: [{ name: 'index', required: false, description: 'which video of the task (default 0)' }],
      response: videoContentSchema, responseContentType: 'video/mp4',
      responses: { '206': { description: 'Partial content (a Range request)', schema: videoContentSchema, contentType: 'video/mp4' }, '416': { description: 'The Range is not satisfiable; no body' } },
    },
  },
  {
    method: 'POST', path: '/api/v1/services/aigc/video-generation/video-synthesis', endpoint: 'video.native', protocol: 'dashscope', auth: 'key',
    groupProtocol: 'chat', concurrency: true, ledger: true, handle: nativeVideoSynthesis,
    doc: {
      tag: 'Video', summary: 'Submit a Wan video (DashScope native)',
      description: 'DashScope\'s native body (`model`, `input`, `parameters`) for Wan- and HappyHorse-style models, mounted at the domain root; `X-DashScope-Async` may be sent and is not required. Answers DashScope\'s `{request_id, output: {task_id, task_status}}` with HTTP 200; poll `GET /api/v1/tasks/{task_id}`. Same reservation, duplicate guard, poller and settlement as POST /v1/video/generate. Errors are DashScope-shaped: `{request_id, code, message}` with the gateway\'s codes.',
      request: { schema: nativeVideoRequest }, response: nativeTaskAnswer,
      moreErrors: { '422': 'The Idempotency-Key came before with another body (`idempotency_key_reused`)' },
    },
  },
  {
    method: 'GET', path: /^\/api\/v1\/tasks\/([^/]+)$/, docPath: '/api/v1/tasks/{task_id}', endpoint: 'video.native.tasks', protocol: 'dashscope', auth: 'key',
    concurrency: false, ledger: false, handle: nativeVideoTask,
    doc: {
      tag: 'Video', summary: 'Poll a video task (DashScope native)',
      description: 'DashScope\'s native task answer built from the stored task: PENDING, RUNNING, SUCCEEDED (with `output.video_url` and `usage.video_duration`), FAILED or CANCELED (with `output.code` and `message`). A task of another key, or none, is `UNKNOWN` with HTTP 200, as DashScope answers. Holds no concurrency slot.',
      response: nativeTaskAnswer,
    },
  },
  {
    method: 'GET', path: '/spec/models/index.json', endpoint: 'spec.models', protocol: 'chat', auth: 'none', concurrency: false, ledger: false,
    handle: async (ctx, services) => sendJson(ctx.res, 200, imageSchemaIndex(services.registry.catalog.all())),
    doc: { tag: 'Meta', summary: 'Per-image-model request body JSON Schemas (2020-12)', description: 'No key needed. Generated from the same schemas that validate image requests.', response: { type: 'object' } },
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
    doc: { tag: 'Account', summary: 'Balance and key quota', description: 'Accepts only `Authorization: Bearer`. `concurrency.in_flight`: the account\'s requests in flight; in team mode on every replica (the live leases).', response: usageReport },
  },
  {
    method: 'GET', path: '/api/v1/models/pricing', endpoint: 'pricing', protocol: 'chat', auth: 'none', concurrency: false, ledger: false, handle: pricingList,
    doc: { tag: 'Models', summary: 'Public list prices of the catalog', description: 'No key needed.', response: pricingListSchema },
  },
  {
    method: 'GET', path: '/metrics', endpoint: 'metrics', protocol: 'chat', auth: 'none', concurrency: false, ledger: false, handle: metrics,
    doc: {
      tag: 'Meta', summary: 'Prometheus metrics of this process',
      description: 'The Prometheus text format (0.0.4): requests by endpoint, model and status, latency histograms, tokens and cost, requests in flight (in all and by key id), upstream attempts, failovers, upstream errors by reason and circuit-breaker states; names in the README\'s Metrics section. '
        + 'Needs `Authorization: Bearer <metrics token>` (`GATEHOUSE_METRICS_TOKEN`) or what the admin API takes (its token or a session); without either, 401 `admin_unauthorized`. Shows key and account ids, never a key, secret or prompt.',
      response: { type: 'string' }, responseContentType: 'text/plain; version=0.0.4', errors: ['401', '403'],
    },
  },
  {
    method: 'GET', path: '/openapi.json', endpoint: 'openapi', protocol: 'chat', auth: 'none', concurrency: false, ledger: false,
    handle: async (ctx) => openApiDocument(ctx, ROUTES),
    doc: { tag: 'Meta', summary: 'This OpenAPI 3.1 description', description: 'No key needed.', response: { type: 'object' } },
  },
  {
    method: 'POST', path: '/v1/quote', endpoint: 'quote', protocol: 'chat', auth: 'key', concurrency: false, ledger: true,
    handle: (ctx, services) => quote(ctx, services, ROUTES),
    doc: {
      tag: 'Account', summary: 'Price a call before making it',
      description: 'Body: `endpoint` (a billable path) and `request` (the JSON body one would send there; images edits in their JSON form). '
        + 'The request is checked by that endpoint\'s own admission — schema, model in the key\'s group and on the endpoint, family rules, an account that serves it, the key\'s group protocol — so an invalid one gets the same status, code and message as the real call. '
        + '**Prices**: per image, second or character, `min` = `max` = what the call is billed (`n` and size tier; video `duration` at the resolution\'s rate, or the model\'s shortest to longest clip when none is sent; characters of `input`). Per token: `min` = the prompt\'s tokens as the gateway counts them (o200k_base) × the input price; `max` = `min` + the output cap (`max_tokens`, `max_completion_tokens`, `max_output_tokens`, else the model\'s output limit) × the output price. '
        + '**Funds are not checked**: a key without balance or quota left still gets a price (the real call would answer 402). '
        + 'A quote calls no upstream, reserves and bills nothing, holds no concurrency slot; its ledger row (endpoint `quote`) costs 0. '
        + 'Its body counts, like every body, against the key\'s byte budget (429 `apikey_body_limit`) and the gateway\'s (503 `gateway_body_limit`).',
      request: { schema: quoteRequest }, response: quoteObject,
      errors: ['400', '401', '403', '404', '408', '413', '429', '500', '503'],
    },
  },
  ...ADMIN_ROUTES,
]
