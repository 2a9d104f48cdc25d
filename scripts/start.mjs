// `npm start`: installs what is missing, builds the console when its sources changed, and runs the
// console and API on http://localhost:8080 (PGlite under ./data unless DATABASE_URL is set), with one
// local media node (RTMP 1935, SRT 9710, SRT playback 9720, WHIP/HLS on 4242) registered and enabled automatically.
// LOCAL_MEDIA_NODE=off runs the control plane alone.
import { ensureConsoleBuilt, ensureMediaTools, ensureNodeModules, onSupportedNode, runInstead } from './lib.mjs';

ensureNodeModules();
await onSupportedNode();
ensureConsoleBuilt();
const localMediaNode = process.env.LOCAL_MEDIA_NODE ?? 'on';
if (localMediaNode === 'on') {
  try {
    ensureMediaTools();
  } catch (error) {
    // The control plane starts anyway; it says again that the local media node is not running.
    process.stderr.write(`${error.message}\n`);
  }
}

runInstead(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
  env: { ...process.env, LOCAL_MEDIA_NODE: localMediaNode },
});
