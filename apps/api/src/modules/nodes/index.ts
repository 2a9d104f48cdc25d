/** The nodes module's port: what other modules may import of it (never its service or repository files). */

export type { ReportContext } from './node-reports.service.js';
export { measuredAt } from './node-reports.service.js';
export type { NodesRepository } from './nodes.repository.js';
export type { NodesService } from './nodes.service.js';
export { DEFAULT_NODE_SILENCE_MS, toNode } from './nodes.service.js';
