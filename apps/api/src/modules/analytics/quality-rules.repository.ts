import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { QualityRulesTable } from './analytics.table.js';

export type QualityRuleRow = Selectable<QualityRulesTable>;

/** A rule the periodic check judges, with what its events need of its stream. */
export interface DueQualityRule extends QualityRuleRow {
  owner_id: string;
  callback_uri: string | null;
}

/** What one check measured of a rule's window. */
export interface QualityMeasure {
  at: Date;
  value: number | null;
  viewers: number;
}

/** The rule as its owner sets it. */
export type QualityRuleSetting = Pick<QualityRulesTable, 'enabled' | 'metric' | 'threshold' | 'window_minutes'>;

export class QualityRulesRepository {
  constructor(private readonly db: Db) {}

  find(streamId: string): Promise<QualityRuleRow | undefined> {
    return this.db.selectFrom('quality_rules').selectAll().where('input_id', '=', streamId).executeTakeFirst();
  }

  /**
   * Inserts or replaces a stream's rule, one revision further; its state stays (the next check judges the rule as
   * it now is, and only from that revision on).
   */
  save(streamId: string, setting: QualityRuleSetting, at: Date): Promise<QualityRuleRow> {
    return this.db
      .insertInto('quality_rules')
      .values({ input_id: streamId, ...setting, updated_at: at })
      .onConflict((oc) =>
        oc.column('input_id').doUpdateSet((eb) => ({
          ...setting,
          revision: eb('quality_rules.revision', '+', 1),
          updated_at: at,
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Up to `limit` rules to judge, least recently checked first: those on, and those turned off while Degraded
   * (their quality.recovered is still owed). The stream's owner and callback come with them.
   */
  due(limit: number): Promise<DueQualityRule[]> {
    return this.db
      .selectFrom('quality_rules')
      .innerJoin('inputs', 'inputs.id', 'quality_rules.input_id')
      .selectAll('quality_rules')
      .select(['inputs.owner_id', 'inputs.callback_uri'])
      .where((eb) => eb.or([eb('quality_rules.enabled', '=', true), eb('quality_rules.degraded', '=', true)]))
      .orderBy(sql`quality_rules.checked_at nulls first`)
      .limit(limit)
      .execute();
  }

  /** Records a check that left the state as it was (a rule saved meanwhile keeps its own next check). */
  async checked(rule: Pick<QualityRuleRow, 'input_id' | 'revision'>, measure: QualityMeasure): Promise<void> {
    await this.db
      .updateTable('quality_rules')
      .set({ checked_at: measure.at, last_value: measure.value, last_viewers: measure.viewers })
      .where('input_id', '=', rule.input_id)
      .where('revision', '=', rule.revision)
      .execute();
  }

  /**
   * Moves the rule to `degraded` only from the state and revision the check read (compare and set): of several
   * checks racing (API processes, a run overlapping a restart), one changes the row and the others none; a
   * check of a rule saved since changes nothing. Answers the changed row, or undefined.
   */
  switchState(
    rule: Pick<QualityRuleRow, 'input_id' | 'revision' | 'degraded'>,
    degraded: boolean,
    measure: QualityMeasure,
  ): Promise<QualityRuleRow | undefined> {
    return this.db
      .updateTable('quality_rules')
      .set({
        degraded,
        since: measure.at,
        checked_at: measure.at,
        last_value: measure.value,
        last_viewers: measure.viewers,
      })
      .where('input_id', '=', rule.input_id)
      .where('revision', '=', rule.revision)
      .where('degraded', '=', rule.degraded)
      .returningAll()
      .executeTakeFirst();
  }
}
