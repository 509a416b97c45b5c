import type { BuildOptions, Metafile } from 'esbuild'

export const ROOT: string
export const EXTERNAL: string[]
export const GATEWAY_WORKERS: string[]
export const GATEWAY_NODE_FLAGS: string[]
export const NODE_ESM: BuildOptions & { metafile: true }
export function gatewayAssets(metafile: Metafile, outdir: string): Map<string, string>
export function bundleFresh(entry: string, outfile: string, sourceDirs: string[], workers?: string[]): Promise<string>
