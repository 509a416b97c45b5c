/**
 * Client-facing error messages in English and Chinese. Placeholders are `{name}`.
 * Spec §7: the language follows Accept-Language (default English); codes never change.
 */
export const MESSAGES = {
  missing_field: { en: 'missing {field} field', zh: '缺少 {field} 字段' },
  empty_array: { en: '{field} must not be an empty array', zh: '{field} 不能为空数组' },
  invalid_field: { en: '{field}: {detail}', zh: '{field}：{detail}' },
  invalid_json: { en: 'The request body is not valid JSON: {detail}', zh: '请求体不是合法的 JSON：{detail}' },
  body_not_object: { en: 'The request body must be a JSON object', zh: '请求体必须是 JSON 对象' },
  json_too_deep: {
    en: 'The JSON body nests arrays and objects deeper than {limit} levels.',
    zh: 'JSON 请求体中数组和对象的嵌套超过 {limit} 层。',
  },
  request_body_idle: {
    en: 'The request body stopped arriving: nothing was received for {ms} ms (timeouts.bodyIdleMs).',
    zh: '请求体停止传输：{ms} 毫秒内没有收到数据（timeouts.bodyIdleMs）。',
  },
  request_body_deadline: {
    en: 'The request body did not arrive in full within {ms} ms (timeouts.bodyMs).',
    zh: '请求体未能在 {ms} 毫秒内完整到达（timeouts.bodyMs）。',
  },
  client_gone: { en: 'The client closed the connection before the request was complete.', zh: '客户端在请求完成前关闭了连接。' },
  request_headers_timeout: {
    en: 'The request headers did not arrive in full within {ms} ms (timeouts.headersMs).',
    zh: '请求头未能在 {ms} 毫秒内完整到达（timeouts.headersMs）。',
  },
  malformed_http: { en: 'The HTTP request is malformed ({detail})', zh: 'HTTP 请求格式错误（{detail}）' },
  missing_api_key: {
    en: 'No API key provided. Send it as "Authorization: Bearer sk-..." or "x-api-key: sk-...".',
    zh: '未提供 API 密钥。请通过 "Authorization: Bearer sk-..." 或 "x-api-key: sk-..." 发送。',
  },
  usage_bearer_only: {
    en: 'GET /v1/usage accepts only "Authorization: Bearer sk-..."',
    zh: 'GET /v1/usage 只接受 "Authorization: Bearer sk-..."',
  },
  authorization_not_bearer: {
    en: 'The Authorization header must use the Bearer scheme: send "Authorization: Bearer sk-...".',
    zh: 'Authorization 请求头必须使用 Bearer 方案：请发送 "Authorization: Bearer sk-..."。',
  },
  query_key_refused: {
    en: 'API keys in the URL (?key=) are not accepted; send "Authorization: Bearer sk-..." instead.',
    zh: '不接受 URL 中的 API 密钥（?key=），请改用 "Authorization: Bearer sk-..."。',
  },
  invalid_api_key: { en: 'Incorrect API key provided: {hint}', zh: 'API 密钥无效：{hint}' },
  api_key_disabled: { en: 'This API key is disabled: {hint}', zh: '此 API 密钥已停用：{hint}' },
  api_key_expired: { en: 'This API key has expired: {hint}', zh: '此 API 密钥已过期：{hint}' },
  api_key_headers_differ: {
    en: 'Authorization and x-api-key carry different API keys; send one key, in one of the two headers.',
    zh: 'Authorization 和 x-api-key 请求头携带了不同的 API 密钥；请只发送一个密钥，放在其中一个请求头中。',
  },
  api_key_header_repeated: {
    en: 'The {header} header is sent more than once; send one API key, in one header.',
    zh: '{header} 请求头出现了不止一次；请只发送一个 API 密钥，放在一个请求头中。',
  },
  api_key_revoked_during: { en: 'This API key was revoked while the request was running.', zh: '此 API 密钥在请求进行期间被撤销。' },
  api_key_disabled_during: { en: 'This API key was disabled while the request was running.', zh: '此 API 密钥在请求进行期间被停用。' },
  api_key_expired_during: { en: 'This API key expired while the request was running.', zh: '此 API 密钥在请求进行期间过期。' },
  request_reservation_insufficient: {
    en: 'This request could cost up to {amount} USD, and {available} USD is left of the account\'s budget (less what requests under way hold).{fit}',
    zh: '此请求最多可能花费 {amount} USD，账户预算剩余 {available} USD（已扣除进行中的请求所预留的金额）。{fit}',
  },
  request_reservation_key_quota: {
    en: 'This request could cost up to {amount} USD, and {available} USD is left of this API key\'s quota (less what its requests under way hold).{fit}',
    zh: '此请求最多可能花费 {amount} USD，此 API 密钥的额度剩余 {available} USD（已扣除其进行中的请求所预留的金额）。{fit}',
  },
  request_reservation_upstream: {
    en: 'This request could cost up to {amount} USD, more than is left of the budget of any upstream account that serves {model} ({accounts}; at most {available} USD left).{fit}',
    zh: '此请求最多可能花费 {amount} USD，超过可提供 {model} 的上游账号的剩余预算（{accounts}；最多剩余 {available} USD）。{fit}',
  },
  host_not_allowed: { en: 'Host "{host}" is not allowed', zh: '不允许的 Host："{host}"' },
  host_header_missing: {
    en: 'The request has no Host header; send exactly one, such as "Host: localhost".',
    zh: '请求缺少 Host 请求头；请发送且只发送一个，例如 "Host: localhost"。',
  },
  host_header_repeated: {
    en: 'The request has {count} Host headers; send exactly one.',
    zh: '请求含有 {count} 个 Host 请求头；请只发送一个。',
  },
  host_header_malformed: {
    en: 'The Host header "{host}" is not a host name, an IPv4 address or an IPv6 address in brackets, optionally followed by ":" and a port.',
    zh: 'Host 请求头 "{host}" 不是主机名、IPv4 地址或方括号中的 IPv6 地址（其后可带 ":" 和端口）。',
  },
  host_header_port: {
    en: 'The Host header "{host}" names port {port}, outside 0 to 65535.',
    zh: 'Host 请求头 "{host}" 中的端口 {port} 超出 0 到 65535 的范围。',
  },
  origin_not_allowed: {
    en: 'Requests from browser origin "{origin}" are not allowed',
    zh: '不允许来自浏览器源 "{origin}" 的请求',
  },
  model_not_found: {
    en: 'The model `{model}` does not exist or you do not have access to it.',
    zh: '模型 `{model}` 不存在或当前密钥无权访问。',
  },
  model_retired: {
    en: 'The model `{model}` has been retired.',
    zh: '模型 `{model}` 已下线。',
  },
  model_no_account: {
    en: 'The model `{model}` is not supported by any configured account in this group.',
    zh: '此分组中没有任何已配置的账户支持模型 `{model}`。',
  },
  model_deprecated: {
    en: 'The model `{model}` is deprecated; use `{replacement}` instead.',
    zh: '模型 `{model}` 已弃用，请改用 `{replacement}`。',
  },
  image_model_on_chat: {
    en: 'Image models do not support chat completions; use the images API (/v1/images/generations or /v1/images/edits).',
    zh: '图像模型不支持对话补全接口（/v1/chat/completions），请使用图像接口（/v1/images/generations 或 /v1/images/edits）。',
  },
  model_endpoint_unsupported: {
    en: 'The model `{model}` does not support {path}.',
    zh: '模型 `{model}` 不支持 {path}。',
  },
  route_not_in_group: {
    en: 'The current platform does not support this API path: {path}',
    zh: '当前平台不支持此 API 路径：{path}',
  },
  route_not_found: { en: 'Unknown API path: {method} {path}', zh: '未知的 API 路径：{method} {path}' },
  method_not_allowed: { en: '{method} is not allowed on {path}', zh: '{path} 不支持 {method} 方法' },
  request_too_large: {
    en: 'The request body exceeds the {limit} byte limit.',
    zh: '请求体超过 {limit} 字节的上限。',
  },
  user_concurrency_limit: {
    en: 'Too many requests in flight for this account (limit {limit}); retry after the current ones finish.',
    zh: '账户并发请求数已达上限（{limit}），请在当前请求完成后重试。',
  },
  apikey_concurrency_limit: {
    en: 'Too many requests in flight for this API key (limit {limit}); retry after the current ones finish.',
    zh: '此 API 密钥并发请求数已达上限（{limit}），请在当前请求完成后重试。',
  },
  apikey_body_limit: {
    en: 'The request bodies in flight for this API key would exceed its budget of {limit} bytes; retry after the current ones finish.',
    zh: '此 API 密钥处理中的请求体将超过其 {limit} 字节的额度，请在当前请求完成后重试。',
  },
  gateway_body_limit: {
    en: 'The gateway already holds its limit of {limit} bytes of request bodies; retry in a moment.',
    zh: '网关暂存的请求体已达 {limit} 字节的上限，请稍后重试。',
  },
  internal_error: {
    en: 'The gateway hit an internal error; the request id is {requestId}.',
    zh: '网关内部错误，请求 ID：{requestId}。',
  },
  upstream_error: {
    en: 'The model is temporarily unavailable after trying every account ({detail}).',
    zh: '已尝试所有账户，模型暂时不可用（{detail}）。',
  },
  upstream_unavailable: {
    en: 'The model is overloaded or rate-limited on every account; retry later.',
    zh: '所有账户上的模型都已过载或限流，请稍后重试。',
  },
  upstream_timeout: { en: 'The model did not answer in time.', zh: '模型响应超时。' },
  upstream_rejected: { en: '{detail}', zh: '{detail}' },
  invalid_multipart: { en: 'The multipart/form-data body cannot be read: {detail}', zh: '无法解析 multipart/form-data 请求体：{detail}' },
  multipart_too_many: {
    en: 'The multipart/form-data body has more than {limit} {what}.',
    zh: 'multipart/form-data 请求体的{what}超过 {limit} 个。',
  },
  multipart_field_too_long: {
    en: 'A multipart/form-data field {what} is longer than {limit} bytes.',
    zh: 'multipart/form-data 字段的{what}超过 {limit} 字节。',
  },
  image_refused: { en: 'The model returned no image. It said: {text}', zh: '模型没有返回图像。模型回复：{text}' },
  image_blocked: {
    en: 'The model made no image: the vendor stopped it ({reason}). The same request will be refused again; change the prompt or the reference images.',
    zh: '模型没有生成图像：服务商终止了生成（{reason}）。同样的请求会再次被拒绝，请修改提示词或参考图像。',
  },
  reference_image_unusable: { en: 'The image at {url} {detail}.', zh: '图像 {url} 无法使用：{detail}。' },
  linked_image_unusable: { en: 'The image at {url} {detail}.', zh: '无法加载图像 {url}：{detail}。' },
  linked_image_timeout: { en: 'The image at {url} did not arrive within {seconds} seconds.', zh: '图像 {url} 未能在 {seconds} 秒内下载完成。' },
  linked_image_unreachable: { en: 'The image at {url} could not be downloaded: the connection to {host} failed.', zh: '无法下载图像 {url}：与 {host} 的连接失败。' },
  task_not_found: { en: 'No task {id} for this API key.', zh: '此 API 密钥下没有任务 {id}。' },
  client_closed_request: { en: 'The client closed the request before it was complete.', zh: '客户端在请求完成前关闭了连接。' },
  stream_interrupted: {
    en: 'The upstream stream was interrupted: {detail}. Partial output cannot be resumed; reissue the request.',
    zh: '上游流已中断：{detail}。部分输出无法续传，请重新发起请求。',
  },
  gemini_image_url_data_only: {
    en: 'image_url only supports data URLs (data:<mime type>;base64,...) for this model; HTTP(S) links and other URLs are not accepted.',
    zh: '此模型的 image_url 仅支持 data URL（data:<MIME 类型>;base64,...），不接受 HTTP(S) 链接或其他 URL。',
  },
  gemini_no_usable_content: {
    en: 'The messages contain no usable content: this model reads only text and image_url (data URL) parts.',
    zh: '消息中没有可用内容：此模型只读取 text 和 image_url（data URL）类型的内容。',
  },
  gemini_prompt_blocked: {
    en: 'The prompt was blocked by the model\'s safety system (reason: {reason}).',
    zh: '提示词被模型的安全系统拦截（原因：{reason}）。',
  },
  content_part_unsupported: {
    en: 'The model `{model}` does not accept `{type}` content parts; it reads only: {allowed}.',
    zh: '模型 `{model}` 不接受 `{type}` 类型的内容；它只读取：{allowed}。',
  },
  glm_max_tokens_range: { en: '{field} invalid, allowed range [1,{max}]', zh: '{field} 无效，允许范围 [1,{max}]' },
  reasoning_effort_invalid: {
    en: 'reasoning_effort `{value}` is not supported by the model `{model}`; allowed values: {allowed}.',
    zh: '模型 `{model}` 不支持 reasoning_effort `{value}`；允许的取值：{allowed}。',
  },
  thinking_cannot_be_disabled: {
    en: 'Thinking cannot be disabled for the model `{model}` ({field} `{value}`): it always thinks. Allowed reasoning_effort values: {allowed}.',
    zh: '模型 `{model}` 始终开启思考，无法关闭（{field} `{value}`）。允许的 reasoning_effort 取值：{allowed}。',
  },
  tool_call_not_found: {
    en: 'No tool call found for function call output',
    zh: '找不到与函数调用输出对应的工具调用',
  },
  qwen_max_tokens_range: { en: 'Range of {field} should be [1, {max}]', zh: '{field} 的取值范围应为 [1, {max}]' },
  qwen_image_too_small: {
    en: 'The image length and width do not meet the model restrictions. [height:{height} or width:{width} must be larger than {min}]',
    zh: '图片的长宽不满足模型要求。[高 {height} 或宽 {width} 必须大于 {min}]',
  },
  qwen_input_too_long: { en: 'Range of input length should be [1, {max}]', zh: '输入长度的范围应为 [1, {max}]' },
  input_too_long: {
    en: "This model's maximum input length is {max} tokens. However, your messages resulted in more than {max} tokens. Please reduce the length of the messages.",
    zh: '此模型的输入最多 {max} 个 token，而你的消息超过了 {max} 个 token。请缩短消息。',
  },
  input_too_long_anthropic: { en: 'prompt is too long: more than {max} tokens > {max} maximum', zh: '提示词过长：超过 {max} 个 token，上限为 {max}' },
  input_too_long_gemini: {
    en: 'The input token count exceeds the maximum number of tokens allowed ({max}).',
    zh: '输入的 token 数超过了允许的最大值（{max}）。',
  },
  input_too_long_zhipu: { en: 'Prompt exceeds max length ({max} tokens)', zh: '提示词超过最大长度（{max} 个 token）' },
  chat_n_above_max: {
    en: "Invalid 'n': integer above maximum value. Expected a value <= {max}, but got {n} instead.",
    zh: "无效的 'n'：整数超过最大值。应不大于 {max}，实际为 {n}。",
  },
  chat_n_below_min: {
    en: "Invalid 'n': integer below minimum value. Expected a value >= 1, but got {n} instead.",
    zh: "无效的 'n'：整数小于最小值。应不小于 1，实际为 {n}。",
  },
  image_prompt_empty: { en: 'prompt must not be empty', zh: 'prompt 不能为空' },
  image_prompt_missing: { en: 'missing prompt', zh: '缺少 prompt' },
  image_prompt_too_long: {
    en: '{field} is too long: {length} characters, at most {max} for the model `{model}`.',
    zh: '{field} 过长：{length} 个字符，模型 `{model}` 最多 {max} 个。',
  },
  image_size_invalid: { en: 'Invalid size `{value}` for the model `{model}`: {reason}.', zh: '模型 `{model}` 的 size `{value}` 无效：{reason}。' },
  image_tier_unsupported: {
    en: 'The model `{model}` does not support the {tier} output tier ({field}); supported: {allowed}.',
    zh: '模型 `{model}` 不支持 {tier} 输出档位（{field}）；支持：{allowed}。',
  },
  image_value_unsupported: {
    en: '{field} `{value}` is not supported by the model `{model}`; allowed values: {allowed}.',
    zh: '模型 `{model}` 不支持 {field} `{value}`；允许的取值：{allowed}。',
  },
  image_n_range: {
    en: 'n must be an integer from 1 to {max} for the model `{model}` (got {n}).',
    zh: '模型 `{model}` 的 n 必须是 1 到 {max} 之间的整数（收到 {n}）。',
  },
  image_n_only_one: {
    en: 'The model `{model}` generates one image per request: n must be 1 (got {n}).',
    zh: '模型 `{model}` 每次请求只生成一张图片：n 必须为 1（收到 {n}）。',
  },
  image_n_tier_limit: {
    en: 'n must be at most {max} at {tier} output for the model `{model}` (got {n}).',
    zh: '模型 `{model}` 在 {tier} 输出档位下 n 最多为 {max}（收到 {n}）。',
  },
  image_n_group_single: {
    en: 'This API key\'s group supports only one image per request: n must be 1 (got {n}).',
    zh: '此 API 密钥所在分组每次请求只支持一张图片：n 必须为 1（收到 {n}）。',
  },
  image_transparent_needs_format: {
    en: 'background `transparent` requires output_format png or webp (got {format}).',
    zh: 'background 为 `transparent` 时 output_format 必须是 png 或 webp（收到 {format}）。',
  },
  image_transparent_unsupported: {
    en: 'The model `{model}` does not support background `transparent`.',
    zh: '模型 `{model}` 不支持 background `transparent`。',
  },
  image_mask_unsupported: { en: 'The model `{model}` does not support mask; omit the field.', zh: '模型 `{model}` 不支持 mask，请勿发送该字段。' },
  image_stream_unsupported: {
    en: 'The model `{model}` does not support streaming: omit stream or send false.',
    zh: '模型 `{model}` 不支持流式输出：请省略 stream 或设为 false。',
  },
  image_references_missing: {
    en: 'The edits endpoint needs at least one reference image in {field}.',
    zh: 'edits 接口至少需要一张参考图（{field}）。',
  },
  image_references_too_many: {
    en: 'Too many reference images for the model `{model}`: {count} sent, at most {max}.',
    zh: '模型 `{model}` 的参考图过多：收到 {count} 张，最多 {max} 张。',
  },
  image_reference_invalid: {
    en: '{field} must be an HTTP(S) URL or a data URL (data:image/...;base64,...).',
    zh: '{field} 必须是 HTTP(S) URL 或 data URL（data:image/...;base64,...）。',
  },
  image_reference_base64: {
    en: '{field}: raw base64 is not accepted; send a data URL (data:image/png;base64,...) or an HTTP(S) URL.',
    zh: '{field}：不接受裸 base64，请发送 data URL（data:image/png;base64,...）或 HTTP(S) URL。',
  },
  image_reference_file_id: {
    en: '{field}: file IDs are not accepted; upload the image as a file, or send a data URL or an HTTP(S) URL.',
    zh: '{field}：不接受文件 ID，请以文件形式上传图片，或发送 data URL 或 HTTP(S) URL。',
  },
  image_reference_too_large: { en: '{field} is too large: {size} bytes, at most {max}.', zh: '{field} 过大：{size} 字节，最多 {max} 字节。' },
  image_too_many_pixels: {
    en: '{field} is {width}x{height} pixels; images of at most {max} pixels are accepted.',
    zh: '{field} 为 {width}x{height} 像素；最多接受 {max} 像素的图像。',
  },
  video_input_missing: {
    en: 'A video needs a prompt or an image (first_frame, last_frame, reference_images or images).',
    zh: '生成视频需要 prompt 或图片（first_frame、last_frame、reference_images 或 images）。',
  },
  video_value_unsupported: {
    en: '{field} `{value}` is not supported by the model `{model}`; allowed values: {allowed}.',
    zh: '模型 `{model}` 不支持 {field} `{value}`；允许的取值：{allowed}。',
  },
  video_duration_too_long: {
    en: 'duration {value} is longer than the model `{model}` allows here: at most {max} seconds.',
    zh: 'duration {value} 超过模型 `{model}` 在此设置下的上限：最多 {max} 秒。',
  },
  video_mode_unsupported: {
    en: 'The model `{model}` does not support {mode} video; it supports: {allowed}.',
    zh: '模型 `{model}` 不支持 {mode} 模式的视频；支持：{allowed}。',
  },
  video_reservation_insufficient: {
    en: 'The account balance cannot cover this video\'s reservation of {amount} USD (its largest possible cost; {available} USD available). Top up, or ask for a shorter or lower-resolution video.',
    zh: '账户余额不足以预留此视频的 {amount} USD（其最高可能费用；可用 {available} USD）。请充值，或请求更短或更低分辨率的视频。',
  },
  video_reservation_key_quota: {
    en: 'This API key\'s remaining quota ({available} USD) cannot cover this video\'s reservation of {amount} USD.',
    zh: '此 API 密钥的剩余额度（{available} USD）不足以预留此视频的 {amount} USD。',
  },
  idempotency_key_invalid: {
    en: 'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.',
    zh: 'Idempotency-Key 必须是 1 到 255 个不含空格的可打印 ASCII 字符。',
  },
  idempotency_key_reused: {
    en: 'The Idempotency-Key `{key}` was already used with a different request body (task {id}); use a new key for a different request.',
    zh: 'Idempotency-Key `{key}` 已用于另一个不同的请求体（任务 {id}）；不同的请求请使用新的键。',
  },
  video_content_not_ready: {
    en: 'Task {id} has no saved video {index}: a video is saved once its task has succeeded and the download has finished.',
    zh: '任务 {id} 没有已保存的视频 {index}：视频在任务成功且下载完成后才会保存。',
  },
  admin_unauthorized: {
    en: 'Not signed in to the admin API: open a sign-in address (`npm run gateway -- --login` prints one), or use the desktop app.',
    zh: '未登录管理接口：请打开登录地址（运行 `npm run gateway -- --login` 获取），或使用桌面应用。',
  },
  // The page GET /admin/login answers when the address's code cannot sign in.
  login_link_used: {
    en: 'This sign-in address was already used or is not valid. Each address works once: get a new one with `npm run gateway -- --login`.',
    zh: '此登录地址已被使用或无效。每个地址只能使用一次：请运行 `npm run gateway -- --login` 获取新地址。',
  },
  login_link_expired: {
    en: 'This sign-in address has expired. Get a new one with `npm run gateway -- --login`.',
    zh: '此登录地址已过期。请运行 `npm run gateway -- --login` 获取新地址。',
  },
  admin_not_found: { en: 'No {what} "{id}"', zh: '没有{what}“{id}”' },
  replay_account_not_serving: {
    en: 'Account "{account}" does not serve model "{model}" in group "{group}"',
    zh: '账户“{account}”在分组“{group}”中不提供模型“{model}”',
  },
  replay_body_not_kept: {
    en: 'Request "{id}" cannot be replayed: its body was not kept (turn on "Keep request and answer bodies" in Settings)',
    zh: '请求“{id}”无法重放：其请求体未保存（请在设置中打开“保留请求与回答内容”）',
  },
  replay_media_not_kept: {
    en: 'Request "{id}" cannot be replayed: its images or audio were not kept (turn on "Keep media" in Settings)',
    zh: '请求“{id}”无法重放：其中的图片或音频未保存（请在设置中打开“保留图片与音频”）',
  },
  config_problem: { en: '{field}: {problem}', zh: '{field}：{problem}' },
  group_in_use: {
    en: 'Group "{id}" still has {count} key(s); revoke them first',
    zh: '分组“{id}”仍有 {count} 个密钥，请先吊销这些密钥',
  },
  already_exists: { en: '{what} "{id}" already exists', zh: '{what}“{id}”已存在' },
  task_unfinished: {
    en: 'Task "{id}" is still under way, or its video is still being saved: delete it once it has finished.',
    zh: '任务“{id}”仍在进行中，或其视频仍在保存：请在它结束后再删除。',
  },
  invalid_query: { en: 'Query parameter {name}: {problem}', zh: '查询参数 {name}：{problem}' },
  // Test connection (POST /admin/v1/upstreams/test): what went wrong, in plain words.
  upstream_test_unauthorized: {
    en: 'The vendor refused the key (HTTP {status}): check that it is this vendor\'s key, copied whole, and still active.',
    zh: '服务商拒绝了此密钥（HTTP {status}）：请确认它是该服务商的密钥、已完整复制且仍然有效。',
  },
  upstream_test_not_found: {
    en: 'Nothing answers at this address (HTTP 404): check the base URL.',
    zh: '此地址没有对应的服务（HTTP 404）：请检查基础 URL。',
  },
  upstream_test_unreachable: {
    en: 'Could not connect to {host}: check the base URL and the network.',
    zh: '无法连接到 {host}：请检查基础 URL 和网络。',
  },
  upstream_test_timeout: {
    en: 'The vendor did not answer within {seconds} seconds.',
    zh: '服务商在 {seconds} 秒内没有应答。',
  },
  upstream_test_vendor_error: {
    en: 'The vendor answered with an error (HTTP {status}).',
    zh: '服务商返回了错误（HTTP {status}）。',
  },
  upstream_test_bad_answer: {
    en: 'The address answered, but not with a list of models: check the base URL.',
    zh: '此地址有应答，但不是模型列表：请检查基础 URL。',
  },
  upstream_test_refused: {
    en: 'The base URL {problem}.',
    zh: '基础 URL 不可用：{problem}。',
  },
  upstream_budget_reached: {
    en: 'Every upstream account that serves {model} has reached its budget ({accounts}): raise or remove a budget under Keys & groups.',
    zh: '可提供 {model} 的上游账号都已达到预算（{accounts}）：请在“密钥与分组”中提高或取消预算。',
  },
  shared_store_unavailable: {
    en: 'The gateway could not reach its shared database to take a concurrency slot; retry in a moment.',
    zh: '网关无法连接共享数据库以获取并发名额，请稍后重试。',
  },
  shared_store_down: {
    en: 'The gateway could not reach its shared database; retry in a moment.',
    zh: '网关无法连接共享数据库，请稍后重试。',
  },
  // Connect tools (POST /admin/v1/connect/{tool}…, `npm run gateway -- connect`)
  connect_unsupported: {
    en: '{tool} calls Gemini\'s own generateContent API, which Gatehouse does not serve: it cannot be connected.',
    zh: '{tool} 调用 Gemini 自己的 generateContent 接口，Gatehouse 不提供该接口，因此无法连接。',
  },
  connect_already: {
    en: 'Gatehouse has already connected {tool}: disconnect it (or undo) first.',
    zh: 'Gatehouse 已连接 {tool}：请先断开连接（或撤销）。',
  },
  connect_not_connected: {
    en: '{tool} is not connected by Gatehouse: there is nothing to undo or disconnect.',
    zh: '{tool} 未由 Gatehouse 连接：没有可撤销或断开的内容。',
  },
  connect_no_group: {
    en: '{tool} needs a group of the {protocol} protocol, and there is none: create one under Keys & groups.',
    zh: '{tool} 需要使用 {protocol} 协议的分组，但目前没有：请在“密钥与分组”中创建。',
  },
  connect_wrong_group: {
    en: 'Group "{group}" uses the {has} protocol; {tool} needs a group of the {protocol} protocol.',
    zh: '分组“{group}”使用 {has} 协议；{tool} 需要使用 {protocol} 协议的分组。',
  },
  connect_no_model: {
    en: 'Group "{group}" has no model "{model}".',
    zh: '分组“{group}”中没有模型“{model}”。',
  },
  connect_file_syntax: {
    en: '{path} is not valid {format} (line {line}), so it was left untouched: fix it or move it away, then try again.',
    zh: '{path} 不是有效的 {format}（第 {line} 行），文件未作改动：请修正或移走该文件后重试。',
  },
  connect_file_not_table: {
    en: '{path}: "{key}" is not a table or object, so the file was left untouched.',
    zh: '{path}：“{key}”不是表或对象，文件未作改动。',
  },
  connect_file_not_kept: {
    en: '{path}: its other settings could not be kept exactly, so nothing was written.',
    zh: '{path}：无法完全保留其中的其他设置，因此没有写入任何内容。',
  },
  connect_file_too_large: {
    en: '{path} is larger than {max} bytes, more than a settings file holds, so it was left untouched.',
    zh: '{path} 超过 {max} 字节，不像是设置文件，文件未作改动。',
  },
  connect_backup_gone: {
    en: 'The backup {path} is gone, so Undo cannot restore the file: use Disconnect instead.',
    zh: '备份 {path} 已不存在，无法撤销：请改用“断开连接”。',
  },
} as const satisfies Record<string, { en: string; zh: string }>

export type MessageId = keyof typeof MESSAGES
export type Lang = 'en' | 'zh'

/** A template parameter: the same in every language, or one text per language. */
export type MessageParam = string | number | Record<Lang, string>
export type MessageParams = Record<string, MessageParam>

/** Fills a message template for the language. */
export function formatMessage(id: MessageId, lang: Lang, params: MessageParams = {}): string {
  return MESSAGES[id][lang].replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) return `{${name}}`
    return typeof value === 'object' ? value[lang] : String(value)
  })
}

/** Spec §7: Chinese when Accept-Language starts with zh, English otherwise. */
export function languageOf(acceptLanguage: string | undefined): Lang {
  return acceptLanguage !== undefined && /^\s*zh/i.test(acceptLanguage) ? 'zh' : 'en'
}
