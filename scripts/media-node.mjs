// `npm run media-node`: runs one more media node from this checkout (its settings are the media node's
// variables, apps/media-node/README.md), on Node 22 like `npm start` — after installing what is missing.
import { ensureMediaTools, ensureNodeModules, onSupportedNode, runInstead } from './lib.mjs';

ensureNodeModules();
await onSupportedNode();
ensureMediaTools();
runInstead(process.execPath, ['--import', 'tsx', 'apps/media-node/src/main.ts']);
