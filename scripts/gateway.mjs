// `npm run gateway -- [--config FILE] [--port N] [--data-dir DIR] [--host H]`: the headless gateway, run from a
// bundle (dist/gateway/cli.js) rebuilt whenever a source is newer, in this same process — so the process a
// supervisor signals is the gateway itself, and its stdout carries the one `gateway listening on …` line.
import { pathToFileURL } from 'node:url'
import { bundleFresh, GATEWAY_WORKERS } from './bundle.mjs'

const bundle = await bundleFresh('electron/gateway/cli.ts', 'dist/gateway/cli.js', ['electron/gateway', 'shared'], GATEWAY_WORKERS)
await import(pathToFileURL(bundle).href)
