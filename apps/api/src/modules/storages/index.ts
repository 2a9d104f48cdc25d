/** The storages module's port: what other modules may import of it (never its service or repository files). */

export type { StoragesService } from './storages.service.js';
