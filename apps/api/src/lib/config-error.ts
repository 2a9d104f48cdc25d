/** A configuration the server cannot start with (config.ts, and the providers' own settings). */
export class ConfigError extends Error {}
