import { applyEdits, findNodeAtLocation, modify, parse, parseTree, type FormattingOptions, type ParseError } from 'jsonc-parser'
import { UnreadableFile, type ConfigFormat, type KeyPath } from './config-doc.js'

/** The file's own indentation and line ends, so that an added key looks like its neighbours. */
function formatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  '
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol }
}

/**
 * JSON, and JSON with comments and trailing commas (jsonc-parser, the parser of VS Code's settings): edits are made
 * with `modify` and `applyEdits`, which change only the text of the key named.
 */
export const jsonFormat: ConfigFormat = {
  name: 'JSON',
  read(path, text) {
    const errors: ParseError[] = []
    const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true })
    if (errors.length > 0) {
      const line = text.slice(0, errors[0].offset).split('\n').length
      throw new UnreadableFile(path, 'syntax', { format: 'JSON', line })
    }
    if (value === undefined) return {}
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UnreadableFile(path, 'not_table', { key: '(top level)' })
    return value as Record<string, unknown>
  },
  set(text, key, value) {
    const base = text.trim() === '' ? '{}\n' : text
    // A new key goes first in its object: the formatter then touches only the lines of the edit, which start on the
    // object's opening line, and never re-lays the key before it.
    return applyEdits(base, modify(base, [...key], value, { formattingOptions: formatting(base), getInsertionIndex: () => 0 }))
  },
  remove: removeProperty,
}

/**
 * Takes out one property and its own separator, and nothing else: its line when it stands alone on it, the comma
 * after it (or, for the last property, the comma before it). jsonc-parser's own removal also takes the comments
 * before the property, and its formatter re-lays the property after it.
 */
function removeProperty(text: string, key: KeyPath): string {
  const value = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, [...key])
  const property = value?.parent
  if (!property || property.type !== 'property' || !property.parent?.children) return text
  const siblings = property.parent.children
  const index = siblings.indexOf(property)
  let start = property.offset
  let end = property.offset + property.length
  const lineStart = text.lastIndexOf('\n', start - 1) + 1
  const ownLine = /^[ \t]*$/.test(text.slice(lineStart, start))
  if (ownLine) start = lineStart
  const comma = /^[ \t]*,/.exec(text.slice(end))
  let before = -1
  if (comma) end += comma[0].length
  else if (index > 0) {
    const previous = siblings[index - 1]
    const gap = /^\s*,/.exec(text.slice(previous.offset + previous.length))
    if (gap) before = previous.offset + previous.length + gap[0].length - 1
  }
  const rest = /^[ \t]*\r?\n/.exec(text.slice(end))
  if (ownLine && rest) end += rest[0].length
  const cut = text.slice(0, start) + text.slice(end)
  return before < 0 ? cut : cut.slice(0, before) + cut.slice(before + 1)
}
