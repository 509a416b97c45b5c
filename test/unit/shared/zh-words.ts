/**
 * English words inside Chinese text: ASCII words of four letters or more that are neither names nor codes. A code
 * is a word written as one (with `_`, `.`, `/`, `-`, `:`, digits or inner capitals, inside backticks or quotes), a
 * request field or value the text names, or a product or protocol name.
 */
const NAMES = new Set([
  // products, vendors, protocols, formats
  'Gatehouse', 'OpenAI', 'Anthropic', 'Gemini', 'Seedance', 'Seedream', 'Kling', 'Hailuo', 'MiniMax', 'Qwen', 'Grok', 'Claude', 'DashScope',
  'HTTP', 'HTTPS', 'JSON', 'ASCII', 'MIME', 'IPv4', 'IPv6', 'PostgreSQL', 'SQLite', 'Bearer', 'Authorization', 'Host', 'localhost', 'base64',
  'webp', 'jpeg', 'data', 'multipart', 'form', 'Chromium', 'Electron', 'Markdown',
  // the unit models count in, kept as is in Chinese technical writing (and in the app's own strings)
  'token',
  // request fields and values the gateway's messages name as they are sent
  'prompt', 'size', 'mask', 'stream', 'false', 'true', 'background', 'transparent', 'edits', 'duration', 'image', 'text', 'usage',
  'gateway', 'login', 'model', 'messages', 'tools', 'input', 'images', 'auto', 'none', 'high', 'temperature',
])

export function englishWordsIn(zh: string): string[] {
  const prose = zh
    .replace(/\{\w+\}/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/"[^"]*"/g, ' ')
    .replace(/“[^”]*”/g, ' ')
  const words = prose.match(/[A-Za-z0-9_.\/:\-]+/g) ?? []
  return words.filter((w) => {
    if (/[_.\/:\d]|-/.test(w) || /[a-z][A-Z]/.test(w)) return false
    if (w.length < 4) return false
    return !NAMES.has(w)
  })
}
