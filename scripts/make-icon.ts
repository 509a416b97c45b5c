import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

/**
 * `npx tsx scripts/make-icon.ts`: draws build/icon.png (512 px), the app icon electron-builder packages
 * and the tray shows. Kept as a script so the icon can be redrawn instead of edited as a binary.
 */
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
  <rect x="16" y="16" width="480" height="480" rx="104" fill="#1f2937"/>
  <path d="M128 400V232a128 128 0 0 1 256 0v168" fill="none" stroke="#f9fafb" stroke-width="48" stroke-linecap="round"/>
  <path d="M256 400V264" stroke="#38bdf8" stroke-width="48" stroke-linecap="round"/>
</svg>`

const out = fileURLToPath(new URL('../build/icon.png', import.meta.url))
mkdirSync(fileURLToPath(new URL('../build/', import.meta.url)), { recursive: true })
await sharp(Buffer.from(SVG)).png({ compressionLevel: 9 }).toFile(out)
process.stderr.write(`wrote ${out}\n`)
