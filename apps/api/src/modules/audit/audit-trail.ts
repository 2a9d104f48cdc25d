import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepository } from './audit.repository.js';

/** What one module writes to the audit log: its kind of target, the caller (and the admin behind it), now. */
export class AuditTrail {
  constructor(
    private readonly log: AuditRepository,
    private readonly clock: Clock,
    private readonly targetType: string,
  ) {}

  /** Records `action` on `targetId` by the caller (null: the system itself). */
  record(auth: AuthContext | null, action: string, targetId: string, details: Record<string, unknown> = {}) {
    return this.log.recordBy(auth, { action, targetType: this.targetType, targetId, details }, this.clock.now());
  }
}
