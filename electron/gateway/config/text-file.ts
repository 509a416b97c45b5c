/** Why `textOfFile` read no text, worded to follow the file's name. */
export const NOT_TEXT = 'is not text (UTF-8, or UTF-16 with a byte order mark)'

/**
 * The text of a file a person wrote, whatever their editor saved: UTF-8 with or without a byte order mark (Notepad and
 * PowerShell's `Out-File -Encoding utf8` add one), or UTF-16 with its mark (Windows PowerShell's `>` writes that).
 * Anything else (not valid UTF-8, or holding a NUL) is undefined: refused by the caller (NOT_TEXT) rather than read
 * with replacement characters, which would change a name or a secret without a word.
 */
export function textOfFile(bytes: Uint8Array): string | undefined {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8'
  let text: string
  try {
    // The decoder drops the byte order mark.
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
  // NUL is no character of a text file: UTF-16 saved without its mark reads as UTF-8 with one in every other byte.
  return text.includes('\0') ? undefined : text
}
