/** The recordings module's port: what other modules may import of it (never its service or repository files). */

export { CONTENT_TYPES, type RecordingFile, RecordingFiles } from './recording-files.js';
export type { RecordingsService } from './recordings.service.js';
