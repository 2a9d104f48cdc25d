/** The clips module's port: what other modules may import of it (never its service or repository files). */

export type { ClipEventsMap, ClipSubject } from './clip-events.js';
export type { ClipsService } from './clips.service.js';
