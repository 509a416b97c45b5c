import { fileURLToPath } from 'node:url'

/** The repository's root directory. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url))
