import { BODY_LIMITS, HOUSEKEEPING_ENDPOINTS, USAGE_LATENCY_SAMPLE, USAGE_MAX_DAYS, USAGE_MAX_KEYS, USAGE_MAX_SERIES } from '../../../shared/admin.js'
import * as schema from '../../../shared/schemas/admin.js'
import { connectBody, connectOverview as overviewSchema, connectResult, releaseBody } from '../../../shared/schemas/connect.js'
import { keptCopy } from '../../../shared/schemas/kept-copy.js'
import { getAccount, updateAccount } from '../admin/account.js'
import { connectOverview, connectTool, releaseTool } from '../admin/connect.js'
import { appKey, createGroup, deleteGroup, listGroups, updateGroup } from '../admin/groups.js'
import { createKey, listKeys, revokeKey, updateKey } from '../admin/keys.js'
import { fetchLinkedImage, LINKED_IMAGE_TIMEOUT_MS, MAX_LINKED_IMAGE_BYTES } from '../admin/linked-image.js'
import { listCopies, retryCopy } from '../admin/copies.js'
import { getMedia, listMedia, uploadMedia } from '../admin/media.js'
import { listModelSettings, updateModelSettings } from '../admin/model-settings.js'
import { listRequests } from '../admin/requests.js'
import { deleteRequestBody, getRequestBody } from '../admin/request-body.js'
import { replayRequest } from '../admin/replay.js'
import { closeSession, getSession, login, openSession } from '../admin/session.js'
import { getSettings, getState, putSettings, putState } from '../admin/settings-state.js'
import { serveRenderer } from '../admin/static-files.js'
import { deleteTask, listTasks } from '../admin/tasks.js'
import { createUpstream, deleteUpstream, listUpstreams, updateUpstream } from '../admin/upstreams.js'
import { usageSummary } from '../admin/usage-summary.js'
import { testUpstream } from '../admin/upstream-test.js'
import type { Route } from '../router.js'

const list = (items: object) => ({ type: 'array', items })
const ID = '([^/]+)'
const TAG = 'Admin'

/** An admin route: signed-in only, chat-protocol errors, no concurrency slot, no ledger row (the log is of API calls). */
function adminRoute(method: Route['method'], path: string, endpoint: string, handle: Route['handle'], doc: Omit<Route['doc'], 'tag'>, extra: Partial<Route> = {}): Route {
  const pattern = path.includes('{') ? new RegExp(`^${path.replace(/\{\w+\}/g, ID)}$`) : path
  return {
    method, path: pattern, ...(typeof pattern === 'string' ? {} : { docPath: path }), endpoint: `admin.${endpoint}`,
    protocol: 'chat', auth: 'admin', concurrency: false, ledger: false, handle, doc: { tag: TAG, ...doc }, ...extra,
  }
}

const P = '/admin/v1'

/** The admin API the app's panels use (shared/admin.ts), and the app's own pages. */
export const ADMIN_ROUTES: Route[] = [
  {
    method: 'GET', path: '/', endpoint: 'app', protocol: 'chat', auth: 'none', concurrency: false, ledger: false, handle: serveRenderer,
    doc: { tag: 'App', summary: 'The Gatehouse app (HTML)', description: 'The built renderer, with a strict Content-Security-Policy. 503 when it is not built.', response: { type: 'string' }, responseContentType: 'text/html', errors: ['403'],
      responses: { '503': { description: 'The app is not built (an HTML page saying so)', schema: { type: 'string' }, contentType: 'text/html' } } },
  },
  {
    method: 'GET', path: /^\/assets\/([^/]+)$/, docPath: '/assets/{file}', endpoint: 'app.assets', protocol: 'chat', auth: 'none', concurrency: false, ledger: false, handle: serveRenderer,
    doc: {
      tag: 'App', summary: "The app's scripts and styles", response: { type: 'string' }, responseContentType: 'application/octet-stream', errors: ['403'],
      responses: { '404': { description: 'No such file (an HTML page)', schema: { type: 'string' }, contentType: 'text/html' } },
    },
  },
  {
    method: 'GET', path: '/admin/login', endpoint: 'admin.login', protocol: 'chat', auth: 'none', concurrency: false, ledger: false, handle: login,
    doc: {
      tag: TAG, summary: 'One-time sign-in address', description: 'Printed by the headless gateway at start. A valid code sets the session cookie (HttpOnly, SameSite=Strict) and redirects to `/#session=<session token>` (a fragment never reaches a server; the page keeps the token and sends it as `x-gatehouse-session`); a used or unknown code answers 401 (HTML).',
      query: [{ name: 'code', required: true, description: 'the one-time code' }], response: { type: 'string' }, success: '303', errors: ['403'],
      responses: { '401': { description: 'The code was used already, or is unknown (an HTML page)', schema: { type: 'string' }, contentType: 'text/html' } },
    },
  },
  adminRoute('GET', `${P}/session`, 'session.get', getSession, { summary: 'The signed-in session', description: 'With the session: its media token for kept-media URLs.', response: schema.adminSession }),
  adminRoute('POST', `${P}/session`, 'session.open', openSession, {
    summary: 'Trade the admin token for a session',
    description: 'Desktop window only: needs `Authorization: Bearer <admin token>`. Sets the session cookie; the body carries the session token to send as `x-gatehouse-session`.',
    response: schema.openedAdminSession,
  }),
  adminRoute('DELETE', `${P}/session`, 'session.close', closeSession, { summary: 'Sign out', description: 'The session is forgotten and the cookie cleared (`Max-Age=0`).', response: {}, success: '204' }),
  adminRoute('GET', `${P}/groups`, 'groups.list', listGroups, { summary: 'List groups', response: list(schema.groupSummary) }),
  adminRoute('POST', `${P}/groups`, 'groups.create', createGroup, { summary: 'Create a group', request: { schema: schema.groupCreate }, response: schema.groupSummary, success: '201' }),
  adminRoute('PATCH', `${P}/groups/{group}`, 'groups.update', updateGroup, { summary: 'Change a group', description: 'The protocol cannot change.', request: { schema: schema.groupPatch }, response: schema.groupSummary }),
  adminRoute('DELETE', `${P}/groups/{group}`, 'groups.delete', deleteGroup, { summary: 'Delete a group', description: '409 while keys (other than the app\'s own) use it.', response: {}, success: '204' }),
  adminRoute('POST', `${P}/groups/{group}/app-key`, 'groups.app_key', appKey, { summary: "The app's own key for the group", description: 'Made on first use (201), then the same key (200). The app calls /v1 with it like any client.', response: schema.appKey, responses: { '201': { description: 'Created on this first use', schema: schema.appKey } } }),
  adminRoute('GET', `${P}/upstreams`, 'upstreams.list', listUpstreams, { summary: 'List upstream accounts (secrets masked)', response: list(schema.upstreamSummary) }),
  adminRoute('POST', `${P}/upstreams`, 'upstreams.create', createUpstream, { summary: 'Add an upstream account', description: 'The secret is sealed at rest and never sent back.', request: { schema: schema.upstreamCreate }, response: schema.upstreamSummary, success: '201' }),
  adminRoute('POST', `${P}/upstreams/test`, 'upstreams.test', testUpstream, {
    summary: 'Test connection: the models an upstream account can call',
    description: 'Calls the vendor\'s model-list endpoint (OpenAI-compatible `GET {base}/models`, Anthropic `GET /v1/models`, Gemini `GET /v1beta/models`, DashScope `GET /compatible-mode/v1/models`, another gateway `GET /v1/models`) with the account given, or stored (`{id}`), within 10 s. '
      + 'Always 200 once the body is valid: `{ok: true, models, callable}`, or `{ok: false, status, reason, message, detail}` with what went wrong in plain words (unauthorized key, not found: wrong base URL, unreachable, timeout) and the vendor\'s own text quoted. '
      + 'Kling and MiniMax have no model list: their catalog models come back with `listed: false`. The key never appears in the answer or the logs.',
    request: { schema: schema.upstreamTest }, response: schema.upstreamTestResult,
  }),
  adminRoute('PATCH', `${P}/upstreams/{upstream}`, 'upstreams.update', updateUpstream, { summary: 'Change an upstream account', description: 'Without apiKey the stored secret stays.', request: { schema: schema.upstreamPatch }, response: schema.upstreamSummary }),
  adminRoute('DELETE', `${P}/upstreams/{upstream}`, 'upstreams.delete', deleteUpstream, { summary: 'Remove an upstream account', description: 'It leaves every group\'s failover list too.', response: {}, success: '204' }),
  adminRoute('GET', `${P}/model-settings`, 'model_settings.list', listModelSettings, { summary: "Every catalog model's fallbacks", response: list(schema.modelSettings) }),
  adminRoute('PATCH', `${P}/model-settings/{model}`, 'model_settings.update', updateModelSettings, {
    summary: "Set a model's fallbacks",
    description: 'The ordered list replaces the one before (`[]`: none). Each fallback names a catalog model and the error classes that lead to it: `unavailable` (the model\'s accounts exhausted with 5xx, timeouts or breakers open), `rate_limited` (429s), `context_length` (the vendor says the prompt is too long). Used only before any content reached the client, and only when the fallback is in the key\'s group; the answer and the bill are the served model\'s.',
    request: { schema: schema.modelSettingsPatch }, response: schema.modelSettings,
  }),
  adminRoute('GET', `${P}/keys`, 'keys.list', listKeys, { summary: 'List gateway keys (hints only)', query: [{ name: 'group', required: false, description: 'only this group\'s keys' }], response: list(schema.keySummary) }),
  adminRoute('POST', `${P}/keys`, 'keys.create', createKey, { summary: 'Create a gateway key', description: 'The answer holds the key; it is shown this once and stored only hashed.', request: { schema: schema.keyCreate }, response: schema.createdKey, success: '201' }),
  adminRoute('PATCH', `${P}/keys/{key}`, 'keys.update', updateKey, { summary: 'Rename, disable, or change limits of a key', description: 'null clears a limit.', request: { schema: schema.keyPatch }, response: schema.keySummary }),
  adminRoute('DELETE', `${P}/keys/{key}`, 'keys.revoke', revokeKey, { summary: 'Revoke a key', response: {}, success: '204' }),
  adminRoute('GET', `${P}/requests/{id}/body`, 'requests.body', getRequestBody, {
    summary: 'A request as the client sent it and its answer as delivered (kept bodies)',
    description: `Kept for the last requests while Settings → "Keep request and answer bodies" is on (\`bodies\` in /admin/v1/settings; on by default in the desktop app, off headless): at most ${BODY_LIMITS.maxCount} requests, ${BODY_LIMITS.requestBytes} bytes per request body and per answer, ${BODY_LIMITS.totalBytes} bytes in all (the oldest go first). Secrets are never kept; images and audio are described by size, type and SHA-256 unless media is kept. Erased with the request's ledger row. 404 when none are kept.`,
    response: schema.capturedExchange,
  }),
  adminRoute('DELETE', `${P}/requests/{id}/body`, 'requests.body.delete', deleteRequestBody, { summary: "Forget a request's kept bodies", description: 'The ledger row stays.', response: {}, success: '204' }),
  adminRoute('POST', `${P}/requests/{id}/replay`, 'requests.replay', replayRequest, {
    summary: 'Send a kept request again, on another account or model',
    description: "Sent with the app's own key of the request's group: quoted first (the quote is in the answer; a quote's refusal is the answer), then admitted and billed like any request (budgets, quotas and holds apply). `account` pins the upstream account (400 `invalid_request` when it does not serve the model in the group); `model` names another model of the group. The new request's log entry has `replayOf`. 404 `not_found` when the request's body was not kept; 409 `conflict` when its images or audio were not kept.",
    request: { schema: schema.replayBody },
    response: schema.replayResult,
    moreErrors: { '409': 'the request\'s images or audio were not kept' },
  }),
  adminRoute('GET', `${P}/account`, 'account.get', getAccount, { summary: 'Budget, spent, reservations and the concurrency cap (USD)', description: 'A new install has no budget (`budget: null`): requests are never refused for money until one is set.', response: schema.accountSummary }),
  adminRoute('PATCH', `${P}/account`, 'account.update', updateAccount, { summary: 'Set or clear the budget, or set the concurrency cap', description: '`budget`: USD, from which spending counts anew (402 `insufficient_quota` once spent); null: no budget. `balance` is its older name.', request: { schema: schema.accountPatch }, response: schema.accountSummary }),
  adminRoute('GET', `${P}/requests`, 'requests.list', listRequests, {
    summary: 'The request log, newest first',
    query: [
      { name: 'id', required: false, description: 'one request (its x-request-id)' },
      { name: 'group', required: false, description: 'group id' },
      { name: 'key', required: false, description: 'key id' },
      { name: 'model', required: false, description: 'model id' },
      { name: 'endpoint', required: false, description: 'endpoint name, e.g. chat.completions' },
      { name: 'status', required: false, description: 'ok (below 400), error (400 and above) or a status code (100–599)' },
      { name: 'since', required: false, description: 'ms since 1970 (at most 8640000000000000) or an ISO 8601 date (inclusive)' },
      { name: 'until', required: false, description: 'ms since 1970 (at most 8640000000000000) or an ISO 8601 date (inclusive)' },
      { name: 'limit', required: false, description: '1–500, default 100' },
      { name: 'before', required: false, description: 'the `next` of the previous page' },
      { name: 'housekeeping', required: false, description: `false leaves out the app's housekeeping calls: its own keys' calls to ${HOUSEKEEPING_ENDPOINTS.join(', ')} (default true)` },
    ],
    response: schema.requestLogPage,
  }),
  adminRoute('GET', `${P}/tasks`, 'tasks.list', listTasks, {
    summary: 'Image or video tasks of every key, newest first',
    query: [{ name: 'kind', required: false, description: 'video (default) or image' }, { name: 'limit', required: false, description: '1–500, default 100' }],
    response: list(schema.taskSummary),
  }),
  adminRoute('DELETE', `${P}/tasks/{task}`, 'tasks.delete', deleteTask, {
    summary: 'Delete a finished task and what was kept for it',
    description: 'A succeeded, failed or canceled task (no copy of its video under way) is forgotten with the images and videos kept for it; its ledger row and request-log row stay. 409 while it runs or its video is being saved, 404 for an unknown id.',
    response: {}, success: '204',
  }),
  adminRoute('GET', `${P}/media`, 'media.list', listMedia, { summary: 'Images and videos kept for a request or task', query: [{ name: 'request', required: true, description: 'request or task id' }], response: list(schema.mediaItem) }),
  {
    // Streamed to disk as it arrives, not read whole first.
    ...adminRoute('POST', `${P}/media`, 'media.upload', uploadMedia, {
      summary: 'Keep an image or video the app received inline', query: [{ name: 'request', required: true, description: 'the request it came from' }],
      request: { schema: { type: 'string', format: 'binary' }, contentType: 'image/*' }, response: schema.mediaItem, success: '201',
    }),
    streamsBody: true,
  },
  adminRoute('GET', `${P}/media-copies`, 'media.copies', listCopies, {
    summary: "The gateway's copies of a request's (or video task's) linked results: each saving, kept, failed (why, the vendor link's expiry, the next try) or retrying",
    query: [{ name: 'request', required: true, description: 'request or task id' }], response: list(keptCopy),
  }),
  adminRoute('POST', `${P}/media-copies/retry`, 'media.copies.retry', retryCopy, {
    summary: 'Try a failed copy again now (a video task: its download, tries counted afresh)',
    query: [{ name: 'request', required: true, description: 'request or task id' }, { name: 'index', required: false, description: 'which result (0–99, default 0); a video task retries all' }],
    response: list(keptCopy),
  }),
  adminRoute('GET', `${P}/media/{media}`, 'media.get', getMedia, {
    summary: 'A kept image or video (Range supported)',
    description: '`<img>` and `<video>` cannot send headers: besides the usual credentials, the session cookie with the session\'s media token in the query is accepted here (and only here).',
    query: [{ name: 'media_token', required: false, description: 'the session\'s media token (GET /admin/v1/session)' }],
    response: { type: 'string', format: 'binary' }, responseContentType: 'application/octet-stream',
    responses: { '206': { description: 'Partial content (a Range request)', schema: { type: 'string', format: 'binary' }, contentType: 'application/octet-stream' }, '416': { description: 'The Range is not satisfiable; no body' } },
  }, { mediaToken: true }),
  adminRoute('POST', `${P}/linked-image`, 'linked_image.fetch', fetchLinkedImage, {
    summary: 'Fetch an image a chat answer links to (when the user clicks to load it)',
    description: `The page's Content-Security-Policy loads no remote image; this fetches one through the link guard (public addresses only unless \`network.allowPrivateAddresses\`, every redirect checked), at most ${MAX_LINKED_IMAGE_BYTES} bytes within ${LINKED_IMAGE_TIMEOUT_MS / 1000} s, and answers its bytes only when they are a PNG, JPEG, WebP or GIF of at most 100 megapixels. `
      + 'A link refused, not an image, too large or answering an error is a 400 naming why.',
    request: { schema: schema.linkedImageRequest }, response: { type: 'string', format: 'binary' }, responseContentType: 'image/*',
    moreErrors: { '502': 'The image\'s host could not be reached (`upstream_error`)', '504': 'The image did not arrive in time (`upstream_timeout`)' },
  }),
  adminRoute('GET', `${P}/connect`, 'connect.list', connectOverview, {
    summary: 'Connect tools: Claude Code, Codex and Gemini CLI on the gateway\'s machine, and the SDK variables',
    description: 'Each tool: its program found on PATH, its settings folder, the files a connection writes (Claude Code: `$CLAUDE_CONFIG_DIR/settings.json`, default `~/.claude`; Codex: `$CODEX_HOME/config.toml` and `gatehouse.config.toml`, default `~/.codex`), and its connection. Gemini CLI is found but not supported: it calls Gemini\'s generateContent API, which Gatehouse does not serve. `sdk`: `OPENAI_BASE_URL` and `ANTHROPIC_BASE_URL` as the gateway\'s environment has them, and the values that point here.',
    response: overviewSchema,
  }),
  adminRoute('POST', `${P}/connect/{tool}`, 'connect.connect', connectTool, {
    summary: 'Connect a tool: a key of the right group, and only Gatehouse\'s keys merged into the tool\'s own files',
    description: 'Claude Code (a `messages` group): `env.ANTHROPIC_BASE_URL` and `env.ANTHROPIC_AUTH_TOKEN` in its settings.json. Codex (a `chat` group, the Responses API): `[model_providers.gatehouse]` (name, base_url, wire_api = "responses", experimental_bearer_token) in config.toml and the profile file `gatehouse.config.toml` (model_provider, model), used with `codex --profile gatehouse`. Every other key, comment and the order stay; each existing file is copied first to `<file>.gatehouse-backup-<UTC time>`; a file created is 0600. '
      + '`dryRun: true` answers the diffs (200) and writes nothing, makes no key. A file that does not parse is never touched (409). The key\'s secret is masked in every diff.',
    request: { schema: connectBody }, response: connectResult, success: '201',
    responses: { '200': { description: 'A dry run: the diffs, nothing written', schema: connectResult } },
    moreErrors: { '409': 'Connected already, or a file that cannot be parsed or kept exactly (`conflict`): nothing was written' },
  }),
  adminRoute('POST', `${P}/connect/{tool}/disconnect`, 'connect.disconnect', releaseTool('disconnect'), {
    summary: 'Disconnect a tool: only what the connection added is taken out, and its key revoked',
    description: 'Each key still holding the value written is put back as the backup had it, or removed; a table made for the keys goes when empty; a file the connection created goes when nothing else is in it. A key changed since is left alone. `dryRun: true`: the diffs only.',
    request: { schema: releaseBody }, response: connectResult,
    moreErrors: { '409': 'Not connected, or a file that cannot be parsed (`conflict`): nothing was written' },
  }),
  adminRoute('POST', `${P}/connect/{tool}/undo`, 'connect.undo', releaseTool('undo'), {
    summary: 'Undo a connection: each file restored from its backup byte for byte (a file the connection created is removed), its key revoked',
    description: 'Edits made to the files after the connection are undone too: the diff shows them. `dryRun: true`: the diffs only.',
    request: { schema: releaseBody }, response: connectResult,
    moreErrors: { '409': 'Not connected, or a backup removed since (`conflict`): nothing was written' },
  }),
  adminRoute('GET', `${P}/settings`, 'settings.get', getSettings, { summary: 'Port, language and kept bodies', description: '`bodies` is always answered: as saved, or the default (kept in the desktop app, not headless).', response: schema.settingsBody }),
  adminRoute('PUT', `${P}/settings`, 'settings.put', putSettings, { summary: 'Save port, language and kept bodies', description: 'The port applies at the next start; `bodies` at once (left out: unchanged).', request: { schema: schema.settingsBody }, response: schema.settingsBody }),
  adminRoute('GET', `${P}/state/{name}`, 'state.get', getState, { summary: "A saved panel document (chat, images, video, ui)", response: schema.stateDoc }),
  adminRoute('PUT', `${P}/state/{name}`, 'state.put', putState, { summary: 'Save a panel document', request: { schema: schema.stateBody }, response: {}, success: '204' }),
  adminRoute('GET', `${P}/usage/summary`, 'usage.summary', usageSummary, {
    summary: 'Usage per local day: requests, errors, cost, latency percentiles; spending per model or group, and per key',
    description: `Aggregated in SQL. At most ${USAGE_MAX_DAYS} days; the ${USAGE_MAX_SERIES} biggest series and ${USAGE_MAX_KEYS} biggest keys are listed, the rest summed. Latency percentiles (nearest rank, every status) read at most ${USAGE_LATENCY_SAMPLE} requests per day: all of a day's, or a deterministic sample.`,
    query: [
      { name: 'since', required: false, description: 'first local day, YYYY-MM-DD from 1970-01-01 to 9999-12-31 (default: 29 days before until)' },
      { name: 'until', required: false, description: 'last local day, YYYY-MM-DD from 1970-01-01 to 9999-12-31, inclusive (default: today)' },
      { name: 'tz', required: false, description: "IANA time zone of the days (default: the gateway's)" },
      { name: 'by', required: false, description: 'model (default) or group: what spending is split by' },
      { name: 'housekeeping', required: false, description: "false leaves out the app's housekeeping calls (default true)" },
    ],
    response: schema.usageSummary,
  }),
]
