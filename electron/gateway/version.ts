import pkg from '../../package.json' with { type: 'json' }

/** The app's version, as package.json says. */
export const GATEHOUSE_VERSION: string = pkg.version
