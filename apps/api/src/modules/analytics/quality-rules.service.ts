import {
  DEFAULT_QUALITY_RULE,
  QUALITY_MIN_VIEWERS,
  type QualityRule,
  type QualityRuleBody,
} from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { qualityValue } from './quality-metric.js';
import type { DueQualityRule, QualityMeasure, QualityRuleRow } from './quality-rules.repository.js';
import { readWindowFigures } from './window-figures.js';

export interface QualityRulesServiceDeps {
  uow: Scope<'analytics' | 'qualityRules' | 'access' | 'audit' | 'events'>;
  clock: Clock;
  /** Rules judged per periodic check at most (the least recently checked first): each costs two indexed reads. */
  rulesPerCheck: number;
}

const MINUTE_MS = 60_000;

/**
 * Quality alerts (issue 37): a stream's rule over its viewers' figures, judged by a periodic check that sends
 * quality.degraded when the rule starts to hold and quality.recovered when it stops, once each.
 */
export class QualityRulesService {
  constructor(private readonly deps: QualityRulesServiceDeps) {}

  /** The stream's rule (the default, off, until one is set): its account or an ADMIN, else 404. */
  async get(auth: AuthContext, streamId: string): Promise<QualityRule> {
    const { uow } = this.deps;
    await uow.access.require(auth, 'stream', streamId);
    const row = await uow.qualityRules.find(streamId);
    return row ? toQualityRule(row) : defaultRule(streamId);
  }

  async set(auth: AuthContext, streamId: string, body: QualityRuleBody): Promise<QualityRule> {
    const { uow, clock } = this.deps;
    await uow.access.require(auth, 'stream', streamId);
    const now = clock.now();
    const row = await uow.qualityRules.save(
      streamId,
      { enabled: body.enabled, metric: body.metric, threshold: body.threshold, window_minutes: body.windowMinutes },
      now,
    );
    await uow.audit.recordBy(
      auth,
      { action: 'quality-rule.update', targetType: 'input', targetId: streamId, details: { ...body } },
      now,
    );
    return toQualityRule(row);
  }

  /**
   * The periodic check: judges up to `rulesPerCheck` rules over their windows ending now and, for each whose
   * state changed, switches it and publishes quality.changed on one transaction — only when this check still
   * finds the state and revision it read (another process or run that got there first wins; nothing is sent
   * twice). Answers how many rules it judged and how many changed.
   */
  async check(): Promise<{ checked: number; changed: number }> {
    const { uow, clock, rulesPerCheck } = this.deps;
    const rules = await uow.qualityRules.due(rulesPerCheck);
    let changed = 0;
    for (const rule of rules) {
      const to = clock.now();
      const from = new Date(to.getTime() - rule.window_minutes * MINUTE_MS);
      const measure = await this.measure(rule, from, to);
      const holds =
        rule.enabled &&
        measure.viewers >= QUALITY_MIN_VIEWERS &&
        measure.value !== null &&
        measure.value > rule.threshold;
      if (holds === rule.degraded) {
        await uow.qualityRules.checked(rule, measure);
        continue;
      }
      const switched = await uow.transaction(async (tx) => {
        const row = await tx.qualityRules.switchState(rule, holds, measure);
        if (!row) return false;
        await tx.events.publish('quality.changed', {
          stream: { id: rule.input_id, ownerId: rule.owner_id, callbackUri: rule.callback_uri },
          state: holds ? 'Degraded' : 'OK',
          at: to,
          check: { from, to, value: measure.value, viewers: measure.viewers },
          present: () => toQualityRule(row),
        });
        return true;
      });
      if (switched) changed++;
    }
    return { checked: rules.length, changed };
  }

  /** The rule's metric and the viewer sessions over the window, from the analytics' own figures. */
  private async measure(rule: DueQualityRule, from: Date, to: Date): Promise<QualityMeasure> {
    const { sessions, minutes } = await readWindowFigures(
      this.deps.uow.analytics,
      { streamId: rule.input_id },
      { from, to },
    );
    return { at: to, value: qualityValue(rule.metric, sessions, minutes), viewers: sessions.viewers };
  }
}

function toQualityRule(row: QualityRuleRow): QualityRule {
  return {
    streamId: row.input_id,
    enabled: row.enabled,
    metric: row.metric,
    threshold: row.threshold,
    windowMinutes: row.window_minutes,
    minViewers: QUALITY_MIN_VIEWERS,
    state: row.degraded ? 'Degraded' : 'OK',
    since: row.since?.toISOString() ?? null,
    checkedAt: row.checked_at?.toISOString() ?? null,
    value: row.last_value,
    viewers: row.last_viewers,
  };
}

const defaultRule = (streamId: string): QualityRule => ({
  streamId,
  enabled: DEFAULT_QUALITY_RULE.enabled,
  metric: DEFAULT_QUALITY_RULE.metric,
  threshold: DEFAULT_QUALITY_RULE.threshold,
  windowMinutes: DEFAULT_QUALITY_RULE.windowMinutes,
  minViewers: QUALITY_MIN_VIEWERS,
  state: 'OK',
  since: null,
  checkedAt: null,
  value: null,
  viewers: 0,
});
