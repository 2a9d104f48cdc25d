/** The snapshots module's port: what other modules may import of it (never its service or repository files). */

export type { SnapshotsService } from './snapshots.service.js';
