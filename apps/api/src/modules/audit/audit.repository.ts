import type { Db } from '../../db/database.js';
import type { AuthContext } from '../../lib/auth-context.js';

export interface AuditEntry {
  actorId: string | null;
  actingAdminId: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
}

/** Who did what, and which admin was behind it while impersonating. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  async record(entry: AuditEntry, at: Date): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({
        at,
        actor_id: entry.actorId,
        acting_admin_id: entry.actingAdminId,
        action: entry.action,
        target_type: entry.targetType ?? null,
        target_id: entry.targetId ?? null,
        details: entry.details ? JSON.stringify(entry.details) : null,
      })
      .execute();
  }

  /** Records what a caller did (null: the system itself), with the admin behind an impersonation. */
  recordBy(auth: AuthContext | null, entry: Omit<AuditEntry, 'actorId' | 'actingAdminId'>, at: Date): Promise<void> {
    return this.record({ actorId: auth?.accountId ?? null, actingAdminId: auth?.actingAdminId ?? null, ...entry }, at);
  }

  async list(limit: number) {
    return this.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limit).execute();
  }
}
