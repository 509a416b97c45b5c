import { describe, it, expect, beforeAll, beforeEach, afterAll } from 'vitest';
import OpenAI, { toFile } from 'openai';
import { request } from 'undici';
import sharp from 'sharp';
import { startFakeOpenAIImages, type FakeOpenAIImages } from '../fakes/images/openai-images.js';
import { startFakeGeminiImage, type FakeGeminiImage } from '../fakes/images/gemini-image.js';
import { startFakeArkSeedream, type FakeArkSeedream } from '../fakes/images/ark-seedream.js';
import { startFakeKlingImages, mintKlingJwt, type FakeKlingImages } from '../fakes/images/kling-images.js';
import { startFakeXaiImages, type FakeXaiImages } from '../fakes/images/xai-images.js';
import { imageInfo, makePng } from '../fakes/images/image-bytes.js';
import type { MultipartBody } from '../fakes/images/fake-http.js';

const b64Info = (b64: string) => imageInfo(Buffer.from(b64, 'base64'));

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const r = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await r.body.text();
  return { status: r.statusCode, headers: r.headers, text, json: (() => { try { return JSON.parse(text); } catch { return undefined; } })() as any };
}
async function get(url: string, headers: Record<string, string> = {}) {
  const r = await request(url, { headers });
  const bytes = Buffer.from(await r.body.arrayBuffer());
  return { status: r.statusCode, headers: r.headers, bytes, json: (() => { try { return JSON.parse(bytes.toString()); } catch { return undefined; } })() as any };
}

describe('image-bytes', () => {
  it('hand-made PNGs decode with sharp and report alpha from colour type or tRNS', async () => {
    const rgb = makePng(33, 17);
    const meta = await sharp(rgb).metadata();
    expect([meta.width, meta.height, meta.hasAlpha]).toEqual([33, 17, false]);
    expect((await sharp(rgb).raw().toBuffer()).length).toBe(33 * 17 * 3);
    expect(imageInfo(rgb)).toEqual({ format: 'png', width: 33, height: 17, hasAlpha: false });
    expect(imageInfo(makePng(8, 8, { alpha: true })).hasAlpha).toBe(true);
    expect(imageInfo(makePng(8, 8, { trns: true })).hasAlpha).toBe(true);
    expect(imageInfo(await sharp({ create: { width: 20, height: 10, channels: 3, background: '#123456' } }).jpeg().toBuffer()))
      .toEqual({ format: 'jpeg', width: 20, height: 10, hasAlpha: false });
  });
});

it('close() does not hang on a stalled request', async () => {
  const fake = await startFakeGeminiImage();
  fake.setScenario({ kind: 'stall' });
  const pending = postJson(`${fake.url}/v1beta/models/m:generateContent`, { contents: [{ parts: [{ text: 'x' }] }] }, { 'x-goog-api-key': 'k' });
  await expect.poll(() => fake.calls.length).toBe(1);
  const t0 = Date.now();
  await fake.close();
  expect(Date.now() - t0).toBeLessThan(1000);
  await expect(pending).rejects.toThrow();
});

describe('fake OpenAI images', () => {
  let fake: FakeOpenAIImages;
  let client: OpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAIImages({ apiKey: 'sk-test' });
    client = new OpenAI({ baseURL: fake.url, apiKey: 'sk-test', maxRetries: 0 });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('generate answers n b64 PNGs of the requested size with usage', async () => {
    const r = await client.images.generate({ model: 'gpt-image-1', prompt: 'a red fox in the snow', n: 2, size: '1536x1024', quality: 'high' });
    expect(r.data).toHaveLength(2);
    for (const d of r.data!) expect(b64Info(d.b64_json!)).toEqual({ format: 'png', width: 1536, height: 1024, hasAlpha: false });
    expect(r.data![0].b64_json).not.toBe(r.data![1].b64_json);
    expect(r).toMatchObject({ size: '1536x1024', output_format: 'png', quality: 'high', background: 'opaque' });
    expect(r.usage).toMatchObject({ input_tokens: 6, output_tokens: 2 * 6240, total_tokens: 6 + 2 * 6240, output_tokens_details: { image_tokens: 12480 } });
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({ method: 'POST', path: '/v1/images/generations', body: { model: 'gpt-image-1', n: 2, size: '1536x1024' } });
  });

  it('auto size gives 1024x1024; transparent background gives an RGBA PNG', async () => {
    const r = await client.images.generate({ model: 'gpt-image-1', prompt: 'logo', background: 'transparent' });
    expect(b64Info(r.data![0].b64_json!)).toEqual({ format: 'png', width: 1024, height: 1024, hasAlpha: true });
    expect(r.size).toBe('1024x1024');
  });

  it('edit records repeated image[] files and the mask with its dimensions and alpha', async () => {
    const img = (c: number) => toFile(makePng(64, 48, { color: [c, 10, 10, 255] }), `in${c}.png`, { type: 'image/png' });
    const mask = await toFile(makePng(64, 48, { alpha: true, clearRect: [0, 0, 16, 16] }), 'mask.png', { type: 'image/png' });
    const r = await client.images.edit({ model: 'gpt-image-1', prompt: 'add a hat', image: [await img(1), await img(2)], mask, size: '1024x1536' });
    expect(b64Info(r.data![0].b64_json!)).toMatchObject({ width: 1024, height: 1536 });
    expect(r.usage?.input_tokens_details).toEqual({ text_tokens: 3, image_tokens: 2 * 388 });
    const body = fake.calls[0].body as MultipartBody;
    expect(fake.calls[0].path).toBe('/v1/images/edits');
    expect(body.fields).toMatchObject({ model: 'gpt-image-1', prompt: 'add a hat', size: '1024x1536' });
    expect(body.files.map((f) => [f.field, f.filename, f.mimeType, f.width, f.height, f.hasAlpha])).toEqual([
      ['image[]', 'in1.png', 'image/png', 64, 48, false],
      ['image[]', 'in2.png', 'image/png', 64, 48, false],
      ['mask', 'mask.png', 'image/png', 64, 48, true],
    ]);
    expect(body.files[2].bytes.equals(makePng(64, 48, { alpha: true, clearRect: [0, 0, 16, 16] }))).toBe(true);
  });

  it('edit rejects a mask without alpha or of another size', async () => {
    const image = await toFile(makePng(32, 32), 'a.png', { type: 'image/png' });
    const noAlpha = await toFile(makePng(32, 32), 'm.png', { type: 'image/png' });
    await expect(client.images.edit({ model: 'gpt-image-1', prompt: 'x', image, mask: noAlpha })).rejects.toMatchObject({ status: 400, code: 'invalid_image_format', param: 'mask' });
    const small = await toFile(makePng(16, 16, { alpha: true }), 'm.png', { type: 'image/png' });
    await expect(client.images.edit({ model: 'gpt-image-1', prompt: 'x', image, mask: small })).rejects.toThrow(/mask size does not match/);
    const missing = await postJson(`${fake.url}/images/generations`, { model: 'gpt-image-1' }, { authorization: 'Bearer sk-test' });
    expect(missing.json.error).toMatchObject({ code: 'missing_required_parameter', param: 'prompt' });
  });

  it('moderation_blocked, status and bad key map to OpenAI errors', async () => {
    fake.once({ kind: 'moderation_blocked' }, { kind: 'status', status: 429 });
    await expect(client.images.generate({ model: 'gpt-image-1', prompt: 'x' })).rejects.toMatchObject({ status: 400, code: 'moderation_blocked', type: 'image_generation_user_error' });
    await expect(client.images.generate({ model: 'gpt-image-1', prompt: 'x' })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    const bad = new OpenAI({ baseURL: fake.url, apiKey: 'nope', maxRetries: 0 });
    await expect(bad.images.generate({ model: 'gpt-image-1', prompt: 'x' })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    expect(fake.calls).toHaveLength(3);
  });

  it('stream: partial images then completed with usage; edits use image_edit.* events', async () => {
    const stream = await client.images.generate({ model: 'gpt-image-1', prompt: 'otter', stream: true, partial_images: 2, size: '1024x1024', quality: 'low' });
    const events = [];
    for await (const e of stream) events.push(e);
    expect(events.map((e) => e.type)).toEqual(['image_generation.partial_image', 'image_generation.partial_image', 'image_generation.completed']);
    const done = events[2] as OpenAI.Images.ImageGenCompletedEvent;
    expect(done.usage).toMatchObject({ output_tokens: 272, input_tokens: 2 });
    expect(b64Info(done.b64_json)).toMatchObject({ width: 1024, height: 1024 });

    fake.setScenario({ kind: 'stream', partials: 1, done: true });
    const image = await toFile(makePng(32, 32), 'a.png', { type: 'image/png' });
    const es = [];
    for await (const e of await client.images.edit({ model: 'gpt-image-1', prompt: 'x', image, stream: true })) es.push(e.type);
    expect(es).toEqual(['image_edit.partial_image', 'image_edit.completed']);
  });

  it('slow delays; stall marks the call aborted when the client gives up', async () => {
    fake.once({ kind: 'slow', delayMs: 300 }, { kind: 'stall' });
    const t0 = Date.now();
    await client.images.generate({ model: 'gpt-image-1', prompt: 'x' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    await expect(client.images.generate({ model: 'gpt-image-1', prompt: 'x' }, { timeout: 200 })).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.calls[1].aborted).toBe(true);
    expect(fake.calls[0].aborted).toBeUndefined();
  });
});

describe('fake Gemini image', () => {
  let fake: FakeGeminiImage;
  const gen = (model: string, body: unknown, key = 'g-key') => postJson(`${fake.url}/v1beta/models/${model}:generateContent`, body, { 'x-goog-api-key': key });
  const prompt = (imageConfig?: object) => ({
    contents: [{ role: 'user', parts: [{ text: 'Draw a lighthouse' }] }],
    generationConfig: { responseModalities: ['TEXT', 'IMAGE'], ...(imageConfig ? { imageConfig } : {}) },
  });
  beforeAll(async () => { fake = await startFakeGeminiImage({ apiKey: 'g-key' }); });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('answers an inlineData PNG sized by imageConfig, with image-token usage', async () => {
    fake.setScenario({ kind: 'ok', text: 'Here you go.' });
    const r = await gen('gemini-2.5-flash-image', prompt({ aspectRatio: '16:9', imageSize: '2K' }));
    expect(r.status).toBe(200);
    const parts = r.json.candidates[0].content.parts;
    expect(parts[0]).toEqual({ text: 'Here you go.' });
    expect(parts[1].inlineData.mimeType).toBe('image/png');
    expect(b64Info(parts[1].inlineData.data)).toMatchObject({ width: 2816, height: 1536 });
    expect(r.json.usageMetadata).toMatchObject({ promptTokenCount: 5, candidatesTokenCount: 1290 + 3, totalTokenCount: 5 + 1293 });
    expect(r.json.usageMetadata.candidatesTokensDetails[0]).toEqual({ modality: 'IMAGE', tokenCount: 1290 });
    expect(fake.calls[0].headers['x-goog-api-key']).toBe('g-key');
  });

  it('jpeg on a Pro image model; refusal, blocked and validation answers', async () => {
    fake.once({ kind: 'ok', mimeType: 'image/jpeg' }, { kind: 'text_only' }, { kind: 'blocked' });
    const jpeg = await gen('gemini-3-pro-image-preview', prompt());
    expect(jpeg.json.candidates[0].content.parts[0].inlineData.mimeType).toBe('image/jpeg');
    expect(b64Info(jpeg.json.candidates[0].content.parts[0].inlineData.data)).toMatchObject({ format: 'jpeg', width: 1024, height: 1024 });
    expect(jpeg.json.usageMetadata.candidatesTokenCount).toBe(1120);
    const refusal = await gen('gemini-2.5-flash-image', prompt());
    expect(refusal.json.candidates[0].content.parts.every((p: any) => 'text' in p)).toBe(true);
    const blocked = await gen('gemini-2.5-flash-image', prompt());
    expect(blocked.json.candidates).toBeUndefined();
    expect(blocked.json.promptFeedback.blockReason).toBe('PROHIBITED_CONTENT');
    expect((await gen('gemini-2.5-flash-image', prompt({ imageSize: '2k' }))).json.error.status).toBe('INVALID_ARGUMENT');
    expect((await gen('gemini-2.5-flash-image', prompt(), 'wrong')).json.error.details[0].reason).toBe('API_KEY_INVALID');
    expect((await gen('gemini-2.5-flash-image', prompt(), '')).status).toBe(403);
  });

  it('fail_nth fails exactly the nth of concurrent calls', async () => {
    fake.setScenario({ kind: 'fail_nth', n: 2, delayMs: 100 });
    const rs = await Promise.all([0, 1, 2].map(() => gen('gemini-2.5-flash-image', prompt())));
    expect(rs.map((r) => r.status).sort()).toEqual([200, 200, 503]);
    expect(rs.find((r) => r.status === 503)!.json.error.status).toBe('UNAVAILABLE');
    fake.setScenario({ kind: 'status', status: 429 });
    expect((await gen('gemini-2.5-flash-image', prompt())).json.error.status).toBe('RESOURCE_EXHAUSTED');
  });
});

describe('fake Ark Seedream', () => {
  let fake: FakeArkSeedream;
  const auth = { authorization: 'Bearer ark-key' };
  beforeAll(async () => { fake = await startFakeArkSeedream({ apiKey: 'ark-key' }); });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('answers signed urls served by the fake, with generated_images usage', async () => {
    const r = await postJson(`${fake.url}/images/generations`, { model: 'doubao-seedream-4-0-250828', prompt: 'a cat', size: '1K', watermark: false }, auth);
    expect(r.status).toBe(200);
    expect(r.json.data).toHaveLength(1);
    expect(r.json.data[0].size).toBe('1024x1024');
    expect(r.json.usage).toEqual({ generated_images: 1, output_tokens: 4096, total_tokens: 4096 });
    const url = new URL(r.json.data[0].url);
    expect(url.origin).toBe(fake.origin);
    expect(url.pathname).toMatch(/^\/files\/[0-9a-f]+\.jpeg$/);
    const file = await get(url.href);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(imageInfo(file.bytes)).toMatchObject({ format: 'jpeg', width: 1024, height: 1024 });
    expect((await get(`${fake.origin}${url.pathname}`)).status).toBe(403); // signature stripped
    expect(fake.downloads).toHaveLength(2);
    expect(fake.calls).toHaveLength(1);
  });

  it('group generation with a per-image error; b64 png; stream events', async () => {
    fake.once({ kind: 'ok', failed: [1] });
    const body = { model: 'doubao-seedream-4-0-250828', prompt: 'comic strip', size: '1280x720', sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 3 } };
    const group = await postJson(`${fake.url}/images/generations`, body, auth);
    expect(group.json.data.map((d: any) => ('error' in d ? d.error.code : d.size))).toEqual(['1280x720', 'OutputImageSensitiveContentDetected', '1280x720']);
    expect(group.json.usage.generated_images).toBe(2);
    const b64 = await postJson(`${fake.url}/images/generations`, { ...body, sequential_image_generation: 'disabled', response_format: 'b64_json', output_format: 'png' }, auth);
    expect(b64Info(b64.json.data[0].b64_json)).toEqual({ format: 'png', width: 1280, height: 720, hasAlpha: false });
    const sse = await postJson(`${fake.url}/images/generations`, { ...body, stream: true }, auth);
    expect(sse.headers['content-type']).toMatch(/text\/event-stream/);
    expect([...sse.text.matchAll(/^event: (.+)$/gm)].map((m) => m[1])).toEqual([
      'image_generation.partial_succeeded', 'image_generation.partial_succeeded', 'image_generation.partial_succeeded', 'image_generation.completed',
    ]);
    expect(sse.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('errors use the Ark body', async () => {
    fake.once({ kind: 'status', status: 429 });
    const limited = await postJson(`${fake.url}/images/generations`, { model: 'm', prompt: 'p' }, auth);
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatchObject({ code: 'RateLimitExceeded.EndpointRPMExceeded', type: 'TooManyRequests' });
    expect(limited.json.error.message).toMatch(/Request id: \w+$/);
    const size = await postJson(`${fake.url}/images/generations`, { model: 'm', prompt: 'p', size: '100x100' }, auth);
    expect(size.json.error).toMatchObject({ code: 'InvalidParameter', param: 'size', type: 'BadRequest' });
    expect((await postJson(`${fake.url}/images/generations`, { model: 'm', prompt: 'p' })).json.error.code).toBe('AuthenticationError');
  });
});

describe('fake Kling images', () => {
  let fake: FakeKlingImages;
  const bearer = (o: Parameters<typeof mintKlingJwt>[2] = {}, sk = fake.secretKey) => ({ authorization: `Bearer ${mintKlingJwt(fake.accessKey, sk, o)}` });
  const create = (body: object, headers: Record<string, string> = bearer()) => postJson(`${fake.url}/v1/images/generations`, { model_name: 'kling-v2', prompt: 'a puppy', ...body }, headers);
  const poll = (id: string) => get(`${fake.url}/v1/images/generations/${id}`, bearer());
  beforeAll(async () => { fake = await startFakeKlingImages(); });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('walks submitted -> scripted steps -> succeed with downloadable images', async () => {
    fake.setScenario({ kind: 'ok', steps: ['submitted', { status: 500 }, 'processing'] });
    const c = await create({ n: 2, aspect_ratio: '16:9', external_task_id: 'ext-1' });
    expect(c.json).toMatchObject({ code: 0, message: 'SUCCEED', data: { task_status: 'submitted', task_info: { external_task_id: 'ext-1' } } });
    const id = c.json.data.task_id;
    expect((await poll(id)).json.data.task_status).toBe('submitted');
    const err = await poll(id);
    expect([err.status, err.json.code]).toEqual([500, 5000]);
    expect((await poll(id)).json.data.task_status).toBe('processing');
    const done = await poll(id);
    expect(done.json.data.task_status).toBe('succeed');
    const images = done.json.data.task_result.images;
    expect(images.map((i: any) => i.index)).toEqual([0, 1]);
    const file = await get(images[1].url);
    expect(imageInfo(file.bytes)).toEqual({ format: 'png', width: 1360, height: 768, hasAlpha: false });
    expect((await poll(id)).json.data.task_result.images).toEqual(images); // stable once done
    expect(done.json.data.created_at).toBeGreaterThan(1e12); // milliseconds
  });

  it('fail and create-time errors', async () => {
    fake.once({ kind: 'fail', steps: [], message: 'risk control' }, { kind: 'status', status: 429, code: 1102 });
    const id = (await create({})).json.data.task_id;
    expect((await poll(id)).json.data).toMatchObject({ task_status: 'failed', task_status_msg: 'risk control' });
    expect(await create({}).then((r) => [r.status, r.json.code])).toEqual([429, 1102]);
    expect(await create({ image: 'data:image/png;base64,AAAA' }).then((r) => [r.status, r.json.code])).toEqual([400, 1201]);
    expect(await poll('nope').then((r) => [r.status, r.json.code])).toEqual([404, 1203]);
  });

  it('verifies the JWT: header, signature, iss, nbf, exp', async () => {
    const now = Math.floor(Date.now() / 1000);
    const code = async (headers: Record<string, string>) => (await create({}, headers)).json.code;
    expect(await code({})).toBe(1001);
    expect(await code({ authorization: 'Bearer not-a-jwt' })).toBe(1002);
    expect(await code(bearer({ alg: 'HS512' }))).toBe(1002);
    expect(await code(bearer({}, 'other-secret'))).toBe(1000);
    expect(await code(bearer({ iss: 'someone-else' }))).toBe(1000);
    expect(await code(bearer({ nbf: now + 60 }))).toBe(1003);
    expect(await code(bearer({ exp: now - 1 }))).toBe(1004);
    expect(fake.tasks.size).toBe(0);
  });
});

describe('fake xAI images', () => {
  let fake: FakeXaiImages;
  let client: OpenAI;
  beforeAll(async () => {
    fake = await startFakeXaiImages({ apiKey: 'xai-key' });
    client = new OpenAI({ baseURL: fake.url, apiKey: 'xai-key', maxRetries: 0 });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('answers urls by default and b64 JPEGs on request', async () => {
    const byUrl = await client.images.generate({ model: 'grok-imagine-image', prompt: 'a red fox' });
    const d = byUrl.data![0] as any;
    expect(d.mime_type).toBe('image/jpeg');
    expect(d.revised_prompt).toMatch(/^a red fox/);
    expect(new URL(d.url).pathname).toMatch(/^\/xai-imgen\/xai-tmp-imgen-\w+\.jpeg$/);
    expect(imageInfo((await get(d.url)).bytes)).toMatchObject({ format: 'jpeg', width: 1024, height: 1024 });
    expect((byUrl as any).usage).toEqual({ cost_in_usd_ticks: 200_000_000 });
    const b64 = await client.images.generate({ model: 'grok-imagine-image', prompt: 'x', n: 2, response_format: 'b64_json', aspect_ratio: '16:9' } as any);
    expect(b64.data).toHaveLength(2);
    expect(b64Info(b64.data![0].b64_json!)).toMatchObject({ format: 'jpeg', width: 1360, height: 768 });
  });

  it('flat error bodies: unsupported size, bad key (400), moderation', async () => {
    const size = await postJson(`${fake.url}/images/generations`, { prompt: 'x', size: '1024x1024' }, { authorization: 'Bearer xai-key' });
    expect([size.status, size.json]).toEqual([400, { code: 'Client specified an invalid argument', error: 'Argument not supported: size' }]);
    const key = await postJson(`${fake.url}/images/generations`, { prompt: 'x' }, { authorization: 'Bearer xai-wrongQW' });
    expect(key.status).toBe(400);
    expect(key.json.error).toMatch(/^Incorrect API key provided: xa\*\*\*QW/);
    fake.once({ kind: 'moderation_blocked' });
    await expect(client.images.generate({ model: 'grok-imagine-image', prompt: 'x' })).rejects.toMatchObject({ status: 400 });
  });
});
