/** The stream-jobs module's port: what other modules may import of it (never its service or repository files). */

export type { MessageRow } from './stream-jobs.repository.js';
export type { StreamJobKind, StreamJobsScope, StreamJobsServiceDeps } from './stream-jobs.service.js';
export { nodeStreamJobView, StreamJobsService, streamJobView } from './stream-jobs.service.js';
