export interface Logger {
  info(message: string): void;
  error(message: string): void;
  debug(message: string): void;
}

const LEVELS = { silent: 0, error: 1, info: 2, debug: 3 } as const;

/** One line per event on stderr, prefixed with the time and the node's name. */
export function createLogger(level: keyof typeof LEVELS, prefix = 'media-node'): Logger {
  const write = (at: number, tag: string, message: string) => {
    if (LEVELS[level] >= at) process.stderr.write(`${new Date().toISOString()} ${prefix} ${tag} ${message}\n`);
  };
  return {
    error: (message) => write(1, 'ERROR', message),
    info: (message) => write(2, 'INFO', message),
    debug: (message) => write(3, 'DEBUG', message),
  };
}
