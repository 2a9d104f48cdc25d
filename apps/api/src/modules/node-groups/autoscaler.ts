import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import type { ActiveRuleRow, NodeGroupsRepository } from './node-groups.repository.js';
import { describeCondition, type EvaluatedNode, evaluateCondition } from './rule-evaluation.js';
import { AUTOSCALER, type ScalingExecutor } from './scaling-actions.js';

export interface AutoscalerOptions {
  /** How often the loop evaluates (default 30 s). */
  intervalMs: number;
  /** A node's load sample counts for this long after it was taken (default 60 s). */
  sampleMaxAgeMs: number;
  /** Scaling events older than this are deleted (default 7 days). */
  eventRetentionMs: number;
}

export const DEFAULT_AUTOSCALER_OPTIONS: AutoscalerOptions = {
  intervalMs: 30_000,
  sampleMaxAgeMs: 60_000,
  eventRetentionMs: 7 * 24 * 3600_000,
};

export interface TickReport {
  evaluated: number;
  acted: Array<{ ruleId: string; groupId: string; action: 'Increase' | 'Reduce' }>;
}

/**
 * The scaling loop. Each tick evaluates every enabled rule of every scalable group against the
 * group's node load (see rule-evaluation.ts); when a condition holds over the rule's whole window and
 * the rule's actionTimeout has passed since it last acted, the rule claims the action (an atomic
 * update, so two control planes on one database never both act), records a Decision event and
 * performs Increase or Reduce by its amount through the ScalingExecutor. A rule waits actionTimeout
 * seconds after acting, whether the provider call succeeded or not. Ticks never overlap.
 */
export class Autoscaler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<TickReport> | null = null;
  private lastPrune = 0;

  constructor(
    private readonly deps: {
      repository: NodeGroupsRepository;
      executor: ScalingExecutor;
      clock: Clock;
      log?: FastifyBaseLogger;
      options: AutoscalerOptions;
    },
  ) {}

  /**
   * Runs a tick every `intervalMs` (the configured interval by default) until stop(), while `leads()` (one of
   * the API processes sharing a database scales).
   */
  start(intervalMs = this.deps.options.intervalMs, leads: () => boolean = () => true): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!leads()) return;
      this.tick().catch((error: unknown) => this.deps.log?.error({ err: error }, 'autoscaler tick failed'));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** One evaluation of every active rule at the clock's now; a tick already running is joined. */
  tick(): Promise<TickReport> {
    if (!this.running) {
      this.running = this.evaluate().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async evaluate(): Promise<TickReport> {
    const { repository, clock, options } = this.deps;
    const now = clock.now();
    const report: TickReport = { evaluated: 0, acted: [] };
    await this.prune(now);
    const rules = await repository.activeRules();
    if (rules.length === 0) return report;

    const groupIds = [...new Set(rules.map((rule) => rule.group_id))];
    const nodesByGroup = new Map<string, EvaluatedNode[]>(groupIds.map((id) => [id, []]));
    for (const row of await repository.groupNodes(groupIds)) {
      nodesByGroup.get(row.group_id)?.push({ id: row.node_id, bandwidthLimitMbps: row.bandwidth_limit_mbps });
    }
    const nodeIds = [...new Set([...nodesByGroup.values()].flat().map((node) => node.id))];
    const longest = Math.max(...rules.map((rule) => rule.duration)) * 1000;
    const samples = (
      await repository.samplesBetween(nodeIds, new Date(now.getTime() - longest - options.sampleMaxAgeMs), now)
    ).map((row) => ({
      nodeId: row.node_id,
      at: row.at,
      cpuPercent: row.cpu_percent,
      bandwidthMbps: row.bandwidth_mbps,
    }));

    for (const rule of rules) {
      report.evaluated++;
      const spec = {
        type: rule.condition_type,
        comparison: rule.comparison,
        value: rule.value,
        duration: rule.duration,
      };
      const groupNodes = nodesByGroup.get(rule.group_id) ?? [];
      const nodeSet = new Set(groupNodes.map((node) => node.id));
      const evaluation = evaluateCondition(
        spec,
        groupNodes,
        samples.filter((sample) => nodeSet.has(sample.nodeId)),
        now,
        options.sampleMaxAgeMs,
      );
      if (!evaluation.holds || !ready(rule, now)) continue;
      if (!(await repository.claimRule(rule.id, now))) continue;
      await this.act(rule, describeCondition(spec, evaluation.metric), evaluation.metric, now);
      report.acted.push({ ruleId: rule.id, groupId: rule.group_id, action: rule.action_type });
    }
    return report;
  }

  private async act(rule: ActiveRuleRow, condition: string, metric: number | null, now: Date): Promise<void> {
    const { repository, executor } = this.deps;
    const group = { id: rule.group_id, name: rule.group_name };
    const what =
      rule.action_type === 'Increase'
        ? `Increase by ${rule.amount} through ${rule.provider}`
        : `Reduce by ${rule.amount}`;
    await repository.insertEvent({
      group_id: rule.group_id,
      rule_id: rule.id,
      at: now,
      type: 'Decision',
      action: rule.action_type,
      provider: rule.action_type === 'Increase' ? rule.provider : null,
      success: true,
      message: `${condition[0]?.toUpperCase()}${condition.slice(1)}: ${what}`,
      details: {
        conditionType: rule.condition_type,
        comparison: rule.comparison,
        value: rule.value,
        duration: rule.duration,
        metric,
        amount: rule.amount,
        actionTimeout: rule.action_timeout,
      },
    });
    try {
      if (rule.action_type === 'Increase') {
        await executor.increase({
          group,
          ruleId: rule.id,
          action: 'Increase',
          provider: rule.provider,
          count: rule.amount,
          value: rule.provider_value,
          bandwidthLimitMbps: rule.bandwidth_limit_mbps,
          actor: AUTOSCALER,
        });
      } else {
        await executor.reduce({ group, ruleId: rule.id, count: rule.amount, actor: AUTOSCALER });
      }
    } catch (error) {
      this.deps.log?.error({ err: error, ruleId: rule.id }, 'autoscaler action failed');
    }
  }

  private async prune(now: Date): Promise<void> {
    if (now.getTime() - this.lastPrune < 3600_000) return;
    this.lastPrune = now.getTime();
    await this.deps.repository.pruneEvents(new Date(now.getTime() - this.deps.options.eventRetentionMs));
  }
}

/** Whether the rule's actionTimeout has passed since it last acted (the claim checks it again). */
export function ready(rule: Pick<ActiveRuleRow, 'last_action_at' | 'action_timeout'>, now: Date): boolean {
  return rule.last_action_at === null || rule.last_action_at.getTime() + rule.action_timeout * 1000 <= now.getTime();
}
