// Reads a V8 CPU profile (`node --cpu-prof`, the .cpuprofile format Chrome DevTools and speedscope open as a flame
// graph) into the tables `npm run bench:profile` prints: where the samples fell, by function (its own time, and its
// time with what it called) and by where the code comes from.

/** The parts of a .cpuprofile this reads. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>
  /** the node each sample fell in, in order */
  samples: number[]
  /** µs before each sample, the first one from the profile's start */
  timeDeltas: number[]
}

/** One row: a name and its share of the samples' time counted. */
export interface ProfileRow {
  name: string
  /** % of the time counted */
  share: number
}

export interface ProfileSummary {
  /** µs of samples counted (after `skipUs`) */
  countedUs: number
  /** own time: the samples that fell in the function itself */
  self: ProfileRow[]
  /** time with the functions it called (a function on the stack twice counts once) */
  total: ProfileRow[]
  /** own time by where the code comes from (sourceOf) */
  sources: ProfileRow[]
}

/** V8's own pseudo-functions, named as the profile names them. */
const PSEUDO = new Set(['(idle)', '(program)', '(garbage collector)', '(root)'])

/** A function as one row: its name, file and line (1-based), `(native)` for code without a script, or V8's own name. */
export function frameName(frame: CpuProfile['nodes'][number]['callFrame']): string {
  if (PSEUDO.has(frame.functionName)) return frame.functionName
  const name = frame.functionName || '(anonymous)'
  if (frame.url === '') return `${name} (native)`
  return `${name} ${frame.url.slice(frame.url.lastIndexOf('/') + 1)}:${frame.lineNumber + 1}`
}

/**
 * Where a function's code comes from: `gateway` for the gateway's bundle (`gatewayFile`), `undici`, `node` for Node's
 * own modules, V8's pseudo-functions by name, `native` for code without a script (the socket writes, JSON, regular
 * expressions), else `other`: the libraries the bundle loads from node_modules (prom-client, better-sqlite3, …).
 */
export function sourceOf(frame: CpuProfile['nodes'][number]['callFrame'], gatewayFile: string): string {
  if (PSEUDO.has(frame.functionName)) return frame.functionName
  const { url } = frame
  if (url === '') return 'native'
  if (url.endsWith(`/${gatewayFile}`) || url === gatewayFile) return 'gateway'
  if (url.includes('/undici/')) return 'undici'
  if (url.startsWith('node:')) return 'node'
  return 'other'
}

/**
 * The profile's samples after the first `skipUs` (the start and the warm-up), as rows of at most `top` each, largest
 * first. `gatewayFile`: the file name of the gateway's bundle, for `sources`.
 */
export function summarizeProfile(profile: CpuProfile, opts: { skipUs?: number; top?: number; gatewayFile: string }): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const self = new Map<string, number>()
  const total = new Map<string, number>()
  const sources = new Map<string, number>()
  const add = (m: Map<string, number>, k: string, us: number) => m.set(k, (m.get(k) ?? 0) + us)
  let at = 0
  let counted = 0
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0
    at += us
    if (at <= (opts.skipUs ?? 0)) return
    const node = byId.get(id)
    if (node === undefined) return
    counted += us
    add(self, frameName(node.callFrame), us)
    add(sources, sourceOf(node.callFrame, opts.gatewayFile), us)
    const seen = new Set<string>()
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!.callFrame
      if (frame.functionName === '(root)') continue
      const name = frameName(frame)
      if (!seen.has(name)) add(total, name, us)
      seen.add(name)
    }
  })
  const rows = (m: Map<string, number>): ProfileRow[] =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, opts.top ?? 30).map(([name, us]) => ({ name, share: counted === 0 ? NaN : (100 * us) / counted }))
  return { countedUs: counted, self: rows(self), total: rows(total), sources: rows(sources) }
}
