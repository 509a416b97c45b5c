import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The gateway's floors (docs/architecture.md): a room imports rooms on its own floor or below, never above. Type
 * imports count too: a type borrowed from above is how circles start.
 */
const FLOORS: ReadonlyArray<readonly string[]> = [
  /* 0 words    */ ['contract', 'errors.ts', 'version.ts'],
  /* 1 tools    */ ['guards', 'tokens', 'formats', 'data-dir', 'money', 'secrets', 'connect', 'validate.ts'],
  /* 2 rules    */ ['catalog', 'families'],
  /* 3 store    */ ['store'],
  /* 4 state    */ ['registry.ts', 'context.ts', 'client', 'respond.ts', 'limits.ts', 'config', 'media'],
  /* 5 work     */ ['access', 'admission.ts', 'billing', 'upstreams', 'relay', 'images', 'tasks', 'metrics', 'telemetry', 'services.ts'],
  /* 6 spine    */ ['router.ts', 'routes', 'admin', 'team', 'server.ts', 'gateway.ts', 'cli.ts', 'node-flags.ts', 'log-pipes.ts'],
]
/** Arrows that run up a floor, each with its reason. At most two may stand. */
const ALLOWED_UPWARD: readonly string[] = []
const MAX_LOOSE_ROOT_FILES = 20

const GATEWAY = resolve(import.meta.dirname, '../../electron/gateway')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

/** The room of a file: its folder under electron/gateway, or the file itself at the root. */
const roomOf = (file: string) => relative(GATEWAY, file).split(sep)[0]

const floorOf = new Map(FLOORS.flatMap((rooms, floor) => rooms.map((room) => [room, floor] as const)))

/** Every relative import of every gateway file (static, dynamic and type-only), as [from, to] paths. */
function imports(): Array<[string, string]> {
  return sourceFiles(GATEWAY).flatMap((file) =>
    ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles
      .filter((i) => i.fileName.startsWith('.'))
      .map((i) => [file, resolve(dirname(file), i.fileName).replace(/\.js$/, '.ts')] as [string, string])
      .filter(([, to]) => to.startsWith(GATEWAY + sep)),
  )
}

/** Strongly connected sets of more than one file (Tarjan). */
function circles(edges: Array<[string, string]>): string[][] {
  const next = new Map<string, string[]>()
  for (const [from, to] of edges) next.set(from, [...(next.get(from) ?? []), to])
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const set: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        set.push(relative(GATEWAY, w))
      } while (w !== v)
      if (set.length > 1) found.push(set.sort())
    }
  }
  for (const v of next.keys()) if (!index.has(v)) visit(v)
  return found
}

describe('the gateway\'s floors (docs/architecture.md)', () => {
  const edges = imports()

  it('places every room on a floor', () => {
    const rooms = new Set(sourceFiles(GATEWAY).map(roomOf))
    expect([...rooms].filter((room) => !floorOf.has(room)).sort()).toEqual([])
  })

  it('has no import circle', () => {
    expect(circles(edges)).toEqual([])
  })

  it('imports only downward, but for the arrows allowed by name', () => {
    const upward = edges
      .filter(([from, to]) => floorOf.get(roomOf(to))! > floorOf.get(roomOf(from))!)
      .map(([from, to]) => `${relative(GATEWAY, from)} -> ${relative(GATEWAY, to)}`)
    expect(upward.filter((arrow) => !ALLOWED_UPWARD.includes(arrow))).toEqual([])
    expect(ALLOWED_UPWARD.length).toBeLessThanOrEqual(2)
  })

  it('keeps the contract to types, importing only shared/ and errors.ts', () => {
    const contract = sourceFiles(join(GATEWAY, 'contract'))
    const outside = edges.filter(([from, to]) => contract.includes(from) && roomOf(to) !== 'contract' && roomOf(to) !== 'errors.ts')
    expect(outside.map(([from, to]) => `${relative(GATEWAY, from)} -> ${relative(GATEWAY, to)}`)).toEqual([])
    for (const file of contract) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
      const runtime = source.statements.filter((s) =>
        !ts.isInterfaceDeclaration(s) && !ts.isTypeAliasDeclaration(s)
        && !(ts.isImportDeclaration(s) && s.importClause?.isTypeOnly === true)
        && !(ts.isExportDeclaration(s) && s.isTypeOnly))
      expect(runtime.map((s) => `${relative(GATEWAY, file)}: ${s.getText(source).split('\n', 1)[0]}`)).toEqual([])
    }
  })

  it(`keeps at most ${MAX_LOOSE_ROOT_FILES} loose files at the root`, () => {
    expect(readdirSync(GATEWAY).filter((name) => name.endsWith('.ts')).length).toBeLessThanOrEqual(MAX_LOOSE_ROOT_FILES)
  })
})
