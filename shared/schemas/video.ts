/**
 * JSON Schemas (2020-12) of the video endpoints: POST /v1/video/generate, its task object, and the DashScope-native
 * path (spec §4.3 names only the paths; the contract is designed here). The gateway validates requests with the
 * same schemas that /openapi.json publishes.
 */

export const VIDEO_IMAGE_ROLES = ['first_frame', 'last_frame', 'reference'] as const
export const VIDEO_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const

const imageUrl = { type: 'string', minLength: 1, description: 'an http(s) URL or a data: URL (data:image/...;base64,...)' } as const

/** POST /v1/video/generate: one body for every video family; unknown fields are forwarded to the vendor unchanged. */
export const videoGenerateRequest = {
  type: 'object',
  required: ['model'],
  properties: {
    model: { type: 'string', minLength: 1, description: 'a video model id from GET /v1/models' },
    prompt: { type: 'string', description: 'what the video shows; required unless an image is given' },
    images: {
      type: 'array',
      maxItems: 16,
      description: 'reference pictures with their role; merged with first_frame, last_frame and reference_images',
      items: {
        type: 'object',
        required: ['url', 'role'],
        properties: { url: imageUrl, role: { enum: VIDEO_IMAGE_ROLES } },
        additionalProperties: false,
      },
    },
    first_frame: { ...imageUrl, description: 'the opening frame (image-to-video); same as images[{role:"first_frame"}]' },
    last_frame: { ...imageUrl, description: 'the closing frame (first-last-frame models); needs a first_frame on most vendors' },
    reference_images: { type: 'array', maxItems: 16, items: imageUrl, description: 'subject or style references (reference-mode models)' },
    duration: { type: 'number', exclusiveMinimum: 0, description: 'seconds; one of the model\'s durations. Omitted: the vendor\'s default, and the reservation covers the model\'s longest clip' },
    resolution: { type: 'string', minLength: 1, description: 'output tier, e.g. 480p, 720p, 1080p, 768p, 2k (case-insensitive); one of the model\'s resolutions' },
    aspect_ratio: { type: 'string', minLength: 1, description: 'W:H, e.g. 16:9; one of the model\'s aspect ratios' },
    seed: { type: 'integer', description: 'forwarded where the vendor has a seed, dropped where it has none' },
  },
  additionalProperties: true,
} as const

const videoError = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'string' }, message: { type: 'string' } },
} as const

/** The task as GET /v1/video/tasks/{task_id} (and the submission answer) shows it. */
export const videoTaskObject = {
  type: 'object',
  required: ['task_id', 'object', 'status', 'status_url', 'model', 'created_at', 'updated_at', 'reserved'],
  properties: {
    task_id: { type: 'string' },
    object: { const: 'video.task' },
    status: { enum: VIDEO_STATUSES, description: 'queued → running → succeeded | failed | canceled; every vendor\'s own words are mapped to these, an unknown word counts as running' },
    progress: { type: ['number', 'null'], description: '0..100 where the vendor reports it; 100 once succeeded' },
    vendor_status: { type: ['string', 'null'], description: 'the vendor\'s own status word of the last poll (informational)' },
    model: { type: 'string' },
    created_at: { type: 'integer', description: 'Unix seconds' },
    updated_at: { type: 'integer', description: 'Unix seconds' },
    status_url: { type: 'string', description: 'poll this; polling holds no concurrency slot' },
    idempotent_replay: { type: 'boolean', description: 'on a submission answer: true when an earlier identical submission (or the same Idempotency-Key) was returned instead of a new task' },
    request: {
      type: 'object',
      properties: {
        prompt: { type: 'string' },
        duration: { type: 'number' },
        resolution: { type: 'string' },
        aspect_ratio: { type: 'string' },
        max_seconds: { type: 'number', description: 'the longest clip the request can produce: what the reservation covers' },
      },
    },
    reserved: { type: 'number', description: 'USD held for this task while it is in flight (its largest possible cost); 0 once it ended' },
    result: {
      type: 'object',
      description: 'when succeeded',
      properties: {
        videos: {
          type: 'array',
          items: {
            type: 'object',
            required: ['url'],
            properties: {
              url: { type: 'string', description: 'the vendor\'s link; signed links expire (hours to days)' },
              content_url: { type: 'string', description: 'the gateway\'s saved copy (GET with the same key); present once downloaded' },
              mime_type: { type: 'string' },
              bytes: { type: 'integer' },
            },
          },
        },
        seconds: { type: 'number', description: 'seconds of video the vendor reports it produced' },
      },
    },
    usage: {
      type: 'object',
      description: 'when succeeded: what was billed (failed and canceled tasks are not billed)',
      properties: { seconds: { type: 'number' }, cost: { type: 'number', description: 'USD' } },
    },
    error: { ...videoError, description: 'when failed or canceled' },
  },
} as const

/** POST /api/v1/services/aigc/video-generation/video-synthesis: DashScope's native body (Wan / HappyHorse models). */
export const nativeVideoRequest = {
  type: 'object',
  required: ['model', 'input'],
  properties: {
    model: { type: 'string', minLength: 1 },
    input: {
      type: 'object',
      properties: {
        prompt: { type: 'string' },
        negative_prompt: { type: 'string' },
        img_url: { ...imageUrl, description: 'first frame (image-to-video)' },
        first_frame_url: imageUrl,
        last_frame_url: imageUrl,
        media: {
          type: 'array',
          items: { type: 'object', required: ['type', 'url'], properties: { type: { enum: ['first_frame', 'last_frame', 'reference_image'] }, url: imageUrl } },
        },
      },
      additionalProperties: true,
    },
    parameters: {
      type: 'object',
      properties: {
        resolution: { type: 'string', minLength: 1, description: '720P, 1080P …' },
        size: { type: 'string', pattern: '^[1-9][0-9]*\\*[1-9][0-9]*$', description: 'W*H (older models); its short side names the tier' },
        duration: { type: 'number', exclusiveMinimum: 0 },
        ratio: { type: 'string' },
        seed: { type: 'integer' },
      },
      additionalProperties: true,
    },
  },
  additionalProperties: true,
} as const

const nativeOutput = {
  type: 'object',
  required: ['task_id', 'task_status'],
  properties: {
    task_id: { type: 'string' },
    task_status: { enum: ['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'UNKNOWN'] },
    submit_time: { type: 'string' },
    end_time: { type: 'string' },
    video_url: { type: 'string' },
    code: { type: 'string' },
    message: { type: 'string' },
  },
} as const

/** DashScope's native task answer (create and GET /api/v1/tasks/{task_id}). */
export const nativeTaskAnswer = {
  type: 'object',
  required: ['request_id', 'output'],
  properties: {
    request_id: { type: 'string' },
    output: nativeOutput,
    usage: { type: 'object', properties: { video_duration: { type: 'number' }, duration: { type: 'number' }, video_count: { type: 'integer' } } },
  },
} as const

/** DashScope's native error shape, used on the native paths. */
export const nativeErrorObject = {
  type: 'object',
  required: ['request_id', 'code', 'message'],
  properties: { request_id: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
} as const

/** The saved video file. */
export const videoContent = { type: 'string', contentMediaType: 'video/mp4', description: 'the bytes of the saved video; Range requests are honoured' } as const
