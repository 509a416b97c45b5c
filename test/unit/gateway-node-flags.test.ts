import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { GATEWAY_NODE_FLAGS } from '../../electron/gateway/node-flags.js'

describe('the headless gateway\'s Node flags', () => {
  it('`npm run gateway` runs scripts/gateway.mjs with exactly GATEWAY_NODE_FLAGS (the bench and the spawned tests use the constant)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }
    expect(pkg.scripts.gateway).toBe(['node', ...GATEWAY_NODE_FLAGS, 'scripts/gateway.mjs'].join(' '))
  })
})
