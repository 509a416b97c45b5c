/** JSON Schemas of the connect-tools admin API (shared/connect.ts). */
import { CONNECT_TOOLS } from '../connect.js'

const str = { type: 'string' }
const obj = (properties: Record<string, object>) => ({ type: 'object', additionalProperties: false, required: Object.keys(properties), properties })

export const connectBody = {
  type: 'object', additionalProperties: false,
  properties: {
    group: { type: 'string', minLength: 1, description: 'the group of the key made for the tool (default: the first group of the protocol the tool needs)' },
    model: { type: 'string', minLength: 1, description: "Codex: the model its profile names (default: the group's first model)" },
    dryRun: { type: 'boolean', description: 'true: only the diffs; nothing is written and no key is made' },
  },
}
export const releaseBody = {
  type: 'object', additionalProperties: false,
  properties: { dryRun: { type: 'boolean', description: 'true: only the diffs; nothing is written' } },
}

const connectionSummary = {
  anyOf: [
    obj({
      connectedAt: { type: 'integer', description: 'ms since 1970' }, group: str, model: str, keyId: str, keyHint: str,
      files: { type: 'array', items: obj({ path: str, backup: { type: ['string', 'null'] } }) },
    }),
    { type: 'null' },
  ],
}

export const connectOverview = obj({
  tools: {
    type: 'array',
    items: obj({
      tool: { enum: [...CONNECT_TOOLS] }, name: str, supported: { type: 'boolean' }, protocol: { enum: ['messages', 'chat', null] },
      program: { type: ['string', 'null'] }, homeFound: { type: 'boolean' }, files: { type: 'array', items: str }, usage: str, connection: connectionSummary,
    }),
  },
  sdk: { type: 'array', items: obj({ name: { enum: ['OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL'] }, value: { type: ['string', 'null'] }, suggested: str, pointsHere: { type: 'boolean' } }) },
})

export const connectResult = obj({
  tool: { enum: [...CONNECT_TOOLS] }, dryRun: { type: 'boolean' },
  changes: { type: 'array', items: obj({ path: str, action: { enum: ['create', 'update', 'delete', 'none'] }, diff: str, backup: { type: ['string', 'null'] } }) },
  connection: connectionSummary, usage: str,
})
