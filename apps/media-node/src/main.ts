import { ConfigError, loadNodeConfig } from './config.js';
import { temporaryDataDir } from './data-dir.js';
import { createLogger } from './log.js';
import { MediaNode } from './node.js';

/** `node --import tsx apps/media-node/src/main.ts`: one media node, configured by the environment. */
async function main(): Promise<void> {
  const config = loadNodeConfig();
  const log = createLogger(config.logLevel, process.env.NODE_LOG_PREFIX || 'media-node');
  if (!config.dataDir) {
    // Without MEDIA_DATA_DIR: a temporary directory of this process, gone when it exits.
    const temporary = temporaryDataDir();
    process.on('exit', () => temporary.remove());
    for (const leftover of temporary.removedLeftovers) log.info(`removed ${leftover}, left by an earlier node`);
    config.dataDir = temporary.path;
  }
  const node = new MediaNode(config, log);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping`);
    await node.stop().catch((error: unknown) => log.error(`stopping failed: ${String(error)}`));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await node.start();
  // The line the embedded start and the tests wait for.
  process.stdout.write(`media node ready on port ${node.port} (RTMP ${node.ports.rtmp}, SRT ${node.ports.srt})\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `the media node failed to start: ${error instanceof Error ? error.stack : String(error)}`}\n`,
  );
  process.exit(error instanceof ConfigError ? 2 : 1);
});
