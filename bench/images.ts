// The large images edit: one multipart body of about 40 MB (four incompressible reference PNGs and a small mask),
// sent sequentially on one keep-alive connection, directly to the fake OpenAI images server and through Gatehouse,
// in rounds whose medians are reported; and Gatehouse's peak memory growth over that phase, from /proc/<pid>/status.
import { randomBytes } from 'node:crypto'
import { crc32, deflateSync } from 'node:zlib'
import { makePng } from '../test/fakes/images/image-bytes.js'
import { readProcMemory, resetPeak, type ProcMemory } from './proc-memory.js'
import { median, medianSeq, probeRequest, rotate, sequential, type RequestSpec, type SeqResult } from './measure.js'
import { BENCH_KEY, MODELS, UPSTREAM_KEYS } from './targets.js'

/** Four 1830x1830 RGB PNGs of random pixels (stored deflate: ≈ 10 MB each) and a 256x256 mask with a transparent square. */
export const IMAGES_OPTS = { references: 4, edge: 1830, maskEdge: 256, maxRequests: 8, warmup: 1, maxMs: 120_000 }
/** The bound on Gatehouse's peak memory growth over the images phase. */
const GOAL_GROWTH_MB = 150
/** MB here is 10^6 bytes, for the body and the memory alike. */
const MB = 1e6
const PROMPT = 'replace the masked square with a window'

export const IMAGE_PATHS = ['imagesDirect', 'imagesGatehouse'] as const
export type ImagePath = (typeof IMAGE_PATHS)[number]
export const IMAGE_PATH_LABELS: Record<ImagePath, string> = {
  imagesDirect: 'direct → fake OpenAI images',
  imagesGatehouse: `Gatehouse → OpenAI images (${MODELS.image})`,
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0)
  return Buffer.concat([head, data, crc])
}

/**
 * An 8-bit RGB PNG of random pixels: nothing to compress, so it is as large as its raw pixels (stored deflate
 * blocks, which also keeps building it fast). Each row starts with filter byte 0.
 */
function noisePng(edge: number): Buffer {
  const rowLength = 1 + edge * 3
  const raw = randomBytes(rowLength * edge)
  for (let y = 0; y < edge; y++) raw[y * rowLength] = 0
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(edge, 0)
  ihdr.writeUInt32BE(edge, 4)
  ihdr.writeUInt8(8, 8) // bit depth
  ihdr.writeUInt8(2, 9) // colour type RGB
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw, { level: 0 })), pngChunk('IEND', Buffer.alloc(0))])
}

type Part = { name: string; value: string } | { name: string; filename: string; type: string; bytes: Buffer }

function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----gatehouse-bench-${randomBytes(16).toString('hex')}`
  const chunks = parts.flatMap((p) => {
    const disposition = `--${boundary}\r\ncontent-disposition: form-data; name="${p.name}"`
    return 'value' in p
      ? [Buffer.from(`${disposition}\r\n\r\n${p.value}\r\n`)]
      : [Buffer.from(`${disposition}; filename="${p.filename}"\r\ncontent-type: ${p.type}\r\n\r\n`), p.bytes, Buffer.from('\r\n')]
  })
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

export interface ImageBodies {
  requests: Record<ImagePath, RequestSpec>
  /** bytes of each path's body */
  bodyBytes: Record<ImagePath, number>
  referenceBytes: number[]
}

/**
 * Built once. Gatehouse gets the small mask and scales it to the first reference itself; the direct request sends the
 * mask at the first reference's size already (as Gatehouse forwards it: the fake checks that the sizes match), with
 * the same references, so that the difference between the two is Gatehouse's own work.
 */
export function imageBodies(gatehouse: string, images: string): ImageBodies {
  const references = Array.from({ length: IMAGES_OPTS.references }, () => noisePng(IMAGES_OPTS.edge))
  const square = IMAGES_OPTS.maskEdge / 4
  const fittedSquare = Math.round((square * IMAGES_OPTS.edge) / IMAGES_OPTS.maskEdge)
  const masks: Record<ImagePath, Buffer> = {
    imagesGatehouse: makePng(IMAGES_OPTS.maskEdge, IMAGES_OPTS.maskEdge, { alpha: true, clearRect: [square, square, square * 2, square * 2] }),
    imagesDirect: makePng(IMAGES_OPTS.edge, IMAGES_OPTS.edge, { alpha: true, clearRect: [fittedSquare, fittedSquare, fittedSquare * 2, fittedSquare * 2] }),
  }
  const spec = (path: ImagePath, origin: string, apiKey: string): RequestSpec => {
    const { body, contentType } = multipart([
      { name: 'model', value: MODELS.image },
      { name: 'prompt', value: PROMPT },
      ...references.map((bytes, i) => ({ name: 'image[]', filename: `reference-${i}.png`, type: 'image/png', bytes })),
      { name: 'mask', filename: 'mask.png', type: 'image/png', bytes: masks[path] },
    ])
    return {
      url: `${origin}/v1/images/edits`,
      headers: { 'content-type': contentType, authorization: `Bearer ${apiKey}` },
      body,
      expect: ['"data"', '"b64_json"'],
    }
  }
  const requests: Record<ImagePath, RequestSpec> = {
    imagesDirect: spec('imagesDirect', images, UPSTREAM_KEYS.images),
    imagesGatehouse: spec('imagesGatehouse', gatehouse, BENCH_KEY),
  }
  return {
    requests,
    bodyBytes: { imagesDirect: requests.imagesDirect.body.length, imagesGatehouse: requests.imagesGatehouse.body.length },
    referenceBytes: references.map((r) => r.length),
  }
}

/** One path's request once; throws naming the path when it does not answer as expected. */
export async function probeImagePath(requests: Record<ImagePath, RequestSpec>, path: ImagePath): Promise<void> {
  const problem = await probeRequest(requests[path])
  if (problem) throw new Error(`images path ${path} (${requests[path].url}) ${problem}`)
}

export interface ImagesMemory {
  pid: number | undefined
  before?: ProcMemory
  after?: ProcMemory
  /** whether VmHWM was reset to VmRSS just after `before` was read; if not, the peak may be one from before the phase */
  peakReset: boolean
  /** VmHWM after − VmRSS before, in MB (10^6 bytes); NaN when /proc could not be read */
  growthMb: number
}

export type ImageRound = Record<ImagePath, SeqResult>

/**
 * The images phase: Gatehouse's memory read (and its peak reset), the Gatehouse path probed, then `rounds` rounds of
 * both paths (rotated every round), then the memory read again. The direct path is probed earlier (see run.ts), so
 * that a broken fake is caught before the long measurements.
 */
export async function measureImages(requests: Record<ImagePath, RequestSpec>, gatehousePid: number | undefined, rounds: number, log: (line: string) => void): Promise<{ rounds: ImageRound[]; memory: ImagesMemory }> {
  const before = readProcMemory(gatehousePid)
  const peakReset = before !== undefined && gatehousePid !== undefined && resetPeak(gatehousePid)
  await probeImagePath(requests, 'imagesGatehouse')
  const all: ImageRound[] = []
  for (let round = 0; round < rounds; round++) {
    const result = {} as ImageRound
    for (const path of rotate(IMAGE_PATHS, round)) {
      log(`  round ${round + 1}/${rounds}, ${path}: ${IMAGES_OPTS.warmup} warm-up + ${IMAGES_OPTS.maxRequests} sequential edits of ${(requests[path].body.length / MB).toFixed(1)} MB`)
      result[path] = await sequential(requests[path], IMAGES_OPTS)
    }
    all.push(result)
  }
  const after = readProcMemory(gatehousePid)
  const growthMb = before && after ? ((after.vmHwmKb - before.vmRssKb) * 1024) / MB : NaN
  return { rounds: all, memory: { pid: gatehousePid, before, after, peakReset, growthMb } }
}

const overheadOf = (r: ImageRound) => r.imagesGatehouse.totalP50 - r.imagesDirect.totalP50

export function summarizeImages(rounds: ImageRound[], memory: ImagesMemory, bodies: ImageBodies) {
  const medians = Object.fromEntries(IMAGE_PATHS.map((p) => [p, medianSeq(rounds.map((r) => r[p]))])) as ImageRound
  const overhead = overheadOf(medians)
  const bodyMb = bodies.bodyBytes.imagesGatehouse / MB
  const mb = (kb: number | undefined) => (kb === undefined ? NaN : (kb * 1024) / MB)
  return {
    body: {
      gatehouseBytes: bodies.bodyBytes.imagesGatehouse,
      directBytes: bodies.bodyBytes.imagesDirect,
      referenceBytes: bodies.referenceBytes,
      references: `${IMAGES_OPTS.references} reference images (${IMAGES_OPTS.edge}x${IMAGES_OPTS.edge} RGB PNG, random pixels)`,
      mask: `${IMAGES_OPTS.maskEdge}x${IMAGES_OPTS.maskEdge} RGBA PNG (direct: ${IMAGES_OPTS.edge}x${IMAGES_OPTS.edge}, as Gatehouse forwards it)`,
    },
    medians,
    overheadMs: {
      latencyP50: overhead,
      latencyP50PerMb: overhead / bodyMb,
      latencyP50PerRound: rounds.map(overheadOf),
      latencyP50MedianOfRounds: median(rounds.map(overheadOf)),
      latencyP99: medians.imagesGatehouse.totalP99 - medians.imagesDirect.totalP99,
    },
    memory: {
      ...memory,
      units: 'kB fields as /proc reports them (KiB); *Mb fields in 10^6 bytes',
      rssBeforeMb: mb(memory.before?.vmRssKb),
      peakBeforeMb: mb(memory.before?.vmHwmKb),
      peakAfterMb: mb(memory.after?.vmHwmKb),
      rssAfterMb: mb(memory.after?.vmRssKb),
    },
    goal: { goal: `growth < ${GOAL_GROWTH_MB} MB`, growthMb: memory.growthMb, met: memory.growthMb < GOAL_GROWTH_MB },
  }
}
export type ImagesSummary = ReturnType<typeof summarizeImages>

/** Paths whose requests failed, as `id: N failed of M`. */
export function imageFailures(s: ImagesSummary): Array<{ id: ImagePath; text: string }> {
  return IMAGE_PATHS.filter((id) => s.medians[id].failures > 0).map((id) => ({ id, text: `${s.medians[id].failures} failed of ${s.medians[id].requests}` }))
}
