// Real image bytes for the fake image vendors, and a small inspector for uploaded images.
// PNGs are built by hand (IHDR + one zlib IDAT + IEND, so they need nothing native); JPEG and WebP come
// from sharp (a project dependency), loaded lazily so a PNG-only test never touches it.
import { crc32, deflateSync } from 'node:zlib';

export type ImageFormat = 'png' | 'jpeg' | 'webp';
export type Rgba = [number, number, number, number];
export interface ImageInfo { format?: ImageFormat; width?: number; height?: number; hasAlpha?: boolean }

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const MIME: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A solid-colour 8-bit PNG: colour type 6 (RGBA) when `alpha`, else 2 (RGB); `trns` adds a tRNS chunk to an RGB
 * image (alpha without an alpha channel). `clearRect` makes a fully transparent rectangle, as in an edit mask.
 */
export function makePng(width: number, height: number, opts: { color?: Rgba; alpha?: boolean; trns?: boolean; clearRect?: [number, number, number, number] } = {}): Buffer {
  const [r, g, b, a] = opts.color ?? [200, 60, 40, 255];
  const ch = opts.alpha ? 4 : 3;
  const px = Buffer.from(opts.alpha ? [r, g, b, a] : [r, g, b]);
  const row = Buffer.alloc(1 + width * ch);
  for (let x = 0; x < width; x++) px.copy(row, 1 + x * ch);
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  if (opts.alpha && opts.clearRect) {
    const [cx, cy, cw, ch2] = opts.clearRect;
    for (let y = cy; y < Math.min(height, cy + ch2); y++) {
      for (let x = cx; x < Math.min(width, cx + cw); x++) raw[y * row.length + 1 + x * 4 + 3] = 0;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(opts.alpha ? 6 : 2, 9); // colour type
  const parts = [PNG_SIGNATURE, chunk('IHDR', ihdr)];
  if (opts.trns && !opts.alpha) parts.push(chunk('tRNS', Buffer.from([0, r, 0, g, 0, b])));
  parts.push(chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

type SharpFn = (opts: object) => { jpeg(): { toBuffer(): Promise<Buffer> }; webp(): { toBuffer(): Promise<Buffer> } };
let sharpLoad: Promise<SharpFn> | undefined;
const cache = new Map<string, Promise<Buffer>>();

/** Solid-colour image bytes in `format`; cached per format/size/colour (generated images are read-only). */
export function makeImage(format: ImageFormat, width: number, height: number, opts: { color?: Rgba; alpha?: boolean } = {}): Promise<Buffer> {
  const color = opts.color ?? [200, 60, 40, 255];
  const alpha = format !== 'jpeg' && !!opts.alpha;
  const key = `${format}:${width}x${height}:${color.join(',')}:${alpha}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = format === 'png'
      ? Promise.resolve(makePng(width, height, { color, alpha }))
      : (sharpLoad ??= import('sharp').then((m) => m.default as unknown as SharpFn)).then((sharp) => {
        const img = sharp({ create: { width, height, channels: alpha ? 4 : 3, background: { r: color[0], g: color[1], b: color[2], alpha: color[3] / 255 } } });
        return format === 'jpeg' ? img.jpeg().toBuffer() : img.webp().toBuffer();
      });
    cache.set(key, hit);
    hit.catch(() => cache.delete(key));
  }
  return hit;
}

/** A distinct opaque colour per index, so tests can tell images apart. */
export const colorFor = (i: number): Rgba => [(37 * (i + 1)) % 256, (91 * (i + 2)) % 256, (53 * (i + 3)) % 256, 255];

/** Format, dimensions and alpha of PNG (IHDR colour type 4/6 or a tRNS chunk), JPEG (SOFn) and WebP bytes. */
export function imageInfo(buf: Buffer): ImageInfo {
  if (buf.length >= 33 && buf.subarray(0, 8).equals(PNG_SIGNATURE) && buf.toString('latin1', 12, 16) === 'IHDR') {
    const colorType = buf[25];
    let hasAlpha = colorType === 4 || colorType === 6;
    for (let off = 8; !hasAlpha && off + 8 <= buf.length;) {
      const len = buf.readUInt32BE(off);
      const type = buf.toString('latin1', off + 4, off + 8);
      if (type === 'tRNS') hasAlpha = true;
      if (type === 'IDAT' || type === 'IEND') break;
      off += 12 + len;
    }
    return { format: 'png', width: buf.readUInt32BE(16), height: buf.readUInt32BE(20), hasAlpha };
  }
  if (buf.length > 4 && buf[0] === 0xff && buf[1] === 0xd8) {
    for (let off = 2; off + 9 < buf.length;) {
      if (buf[off] !== 0xff) { off++; continue; }
      const marker = buf[off + 1];
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { format: 'jpeg', height: buf.readUInt16BE(off + 5), width: buf.readUInt16BE(off + 7), hasAlpha: false };
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { off += 2; continue; }
      off += 2 + buf.readUInt16BE(off + 2);
    }
    return { format: 'jpeg' };
  }
  if (buf.length >= 30 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP') {
    const kind = buf.toString('latin1', 12, 16);
    if (kind === 'VP8X') return { format: 'webp', width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3), hasAlpha: (buf[20] & 0x10) !== 0 };
    if (kind === 'VP8L') {
      const bits = buf.readUInt32LE(21);
      return { format: 'webp', width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff), hasAlpha: ((bits >> 28) & 1) === 1 };
    }
    return { format: 'webp', width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff, hasAlpha: false };
  }
  return {};
}

/** WxH with about `edge`² pixels at aspect ratio "w:h", both sides rounded to multiples of 16. */
export function sizeForRatio(ratio: string, edge: number): [number, number] {
  const [rw, rh] = ratio.split(':').map(Number);
  const r = rw > 0 && rh > 0 ? rw / rh : 1;
  const round16 = (v: number) => Math.max(16, Math.round(v / 16) * 16);
  return [round16(edge * Math.sqrt(r)), round16(edge / Math.sqrt(r))];
}
