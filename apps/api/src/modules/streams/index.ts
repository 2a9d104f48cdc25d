/** The streams module's port: what other modules may import of it (never its service or repository files). */

export type { StreamsService } from './streams.service.js';
