/** The vods module's port: what other modules may import of it (never its service or repository files). */

export type { VodsService } from './vods.service.js';
