import { analyticsRoutes, BEACON_MAX_BYTES } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { AnalyticsService } from './analytics.service.js';
import type { QualityRulesService } from './quality-rules.service.js';

export function registerAnalyticsRoutes(
  app: FastifyInstance,
  analytics: AnalyticsService,
  qualityRules: QualityRulesService,
): void {
  addRoute(
    app,
    analyticsRoutes.beacon,
    async ({ params, body, request }) =>
      analytics.ingest(params.id, body, { address: request.ip, userAgent: request.headers['user-agent'] }),
    // sendBeacon on a page's exit can set no anti-forgery header; the route acts for no account.
    { bodyLimit: BEACON_MAX_BYTES, exemptFromAntiForgery: true },
  );
  addRoute(app, analyticsRoutes.stream, ({ auth, params, query }) => analytics.stream(auth, params.id, query));
  addRoute(app, analyticsRoutes.account, ({ auth, query }) => analytics.account(auth, query));
  addRoute(app, analyticsRoutes.sessions, ({ auth, params, query }) => analytics.sessions(auth, params.id, query));
  addRoute(app, analyticsRoutes.session, ({ auth, params }) => analytics.session(auth, params.id));
  addRoute(app, analyticsRoutes.qualityRule, ({ auth, params }) => qualityRules.get(auth, params.id));
  addRoute(app, analyticsRoutes.setQualityRule, ({ auth, params, body }) => qualityRules.set(auth, params.id, body));
}
