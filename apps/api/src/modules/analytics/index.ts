/** The analytics module's port: what other modules may import of it. */

export type { AnalyticsService } from './analytics.service.js';
