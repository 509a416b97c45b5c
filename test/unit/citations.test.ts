// Code comments cite the interface spec ("spec §x": docs/spec/gateway-interface.md) and the vendor notes
// (docs/vendors/<vendor>.md, by a path relative to the citing file). Every citation must lead somewhere.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const SOURCES = ['electron', 'shared', 'renderer', 'test', 'bench', 'scripts']

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules' || name === 'dist') return []
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.(ts|tsx|mjs|js)$/.test(name) ? [path] : []
  })
}
const FILES = SOURCES.flatMap((d) => sourceFiles(join(ROOT, d))).filter((f) => !f.endsWith('citations.test.ts'))
const read = (file: string) => readFileSync(file, 'utf8')

/** Section numbers of a markdown file's numbered headings (`## 4.`, `### 4.1 …`). */
function sections(file: string): Set<string> {
  return new Set([...read(file).matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((m) => m[1]))
}
const SPEC_SECTIONS = sections(join(ROOT, 'docs/spec/gateway-interface.md'))

describe('citations', () => {
  it('found the spec and the sources', () => {
    expect(SPEC_SECTIONS.has('4.2')).toBe(true)
    expect(FILES.length).toBeGreaterThan(200)
  })

  it('vendor notes are cited at docs/vendors/, by a path that exists from the citing file', () => {
    const broken: string[] = []
    let cited = 0
    for (const file of FILES) {
      const text = read(file)
      if (/shared\/vendors\//.test(text)) broken.push(`${relative(ROOT, file)}: cites shared/vendors/ (moved to docs/vendors/)`)
      for (const [path] of text.matchAll(/(?:\.\.\/)+docs\/vendors\/[\w.-]+\.md/g)) {
        cited++
        if (!existsSync(resolve(dirname(file), path))) broken.push(`${relative(ROOT, file)}: ${path}`)
      }
    }
    expect(cited).toBeGreaterThan(40)
    expect(broken).toEqual([])
  })

  it('a vendor note section cited as "<note>.md §n" is a numbered section of that note', () => {
    const broken: string[] = []
    for (const file of FILES) {
      for (const m of read(file).matchAll(/([\w-]+)\.md["']? §(\d+)(?:-(\d+))?(?: and §(\d+))?/g)) {
        const note = join(ROOT, m[1] === 'gateway-interface' ? 'docs/spec' : 'docs/vendors', `${m[1]}.md`)
        const have = existsSync(note) ? sections(note) : new Set<string>()
        for (const n of [m[2], m[3], m[4]].filter(Boolean)) if (!have.has(n)) broken.push(`${relative(ROOT, file)}: ${m[0]}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('every "spec §x" is a section of docs/spec/gateway-interface.md', () => {
    const broken: string[] = []
    let cited = 0
    for (const file of FILES) {
      for (const line of read(file).split('\n')) {
        if (!/spec\b[^§]{0,30}§/i.test(line)) continue
        // Section signs after a vendor note's name belong to that note.
        const specPart = line.replace(/[\w-]+\.md["']? §[\d.-]+(?: and §\d+)?/g, '')
        for (const [, n] of specPart.matchAll(/§(\d+(?:\.\d+)*)/g)) {
          cited++
          if (!SPEC_SECTIONS.has(n)) broken.push(`${relative(ROOT, file)}: §${n}`)
        }
      }
    }
    expect(cited).toBeGreaterThan(100)
    expect(broken).toEqual([])
  })
})
