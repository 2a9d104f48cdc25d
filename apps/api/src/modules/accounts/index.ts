/** The accounts module's port: what other modules may import of it (never its service or repository files). */

export type { AccountsService } from './accounts.service.js';
