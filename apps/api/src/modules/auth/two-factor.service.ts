import { createHash, randomBytes } from 'node:crypto';
import {
  RECOVERY_CODE_COUNT,
  type RecoveryCodes,
  type SecuritySettings,
  type TwoFactorEnrolment,
  type TwoFactorStatus,
} from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import { type AuthContext, isImpersonating } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { base32Decode, base32Encode, matchingStep } from '../../lib/totp.js';
import { AuditTrail } from '../audit/audit-trail.js';
import type { AttemptThrottle } from './attempt-throttle.js';

/** The app's name in authenticator apps (the otpauth:// URI's issuer). */
export const TOTP_ISSUER = 'Streamcloud';
/** 160 bits: RFC 4226's recommended length for an HMAC-SHA1 key. */
const SECRET_BYTES = 20;
/** 80 random bits per recovery code, written as 16 base32 characters. */
const RECOVERY_CODE_BYTES = 10;
/** Steps either side of now a code is accepted for (an authenticator's clock drifts). */
const STEP_WINDOW = 1;

/** How a code was accepted, or why not. */
export type CodeCheck = { method: 'totp' | 'recovery-code' } | { failure: 'invalid code' | 'code already used' };

const INVALID_CODE = 'Invalid authentication code';
const CODE_USED = 'This code was used already; wait for the next one';

const enabledAlready = () => conflict('Two-factor sign-in is already enabled', 'TWO_FACTOR_ENABLED');

/** The throttle's key of an account's two-factor attempts (sign-in's second step, confirm, disable). */
export const twoFactorKey = (accountId: string) => `two-factor:${accountId}`;

/** A recovery code as stored: the SHA-256 of its 16 characters, lower case, without dashes or spaces. */
export const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('base64url');

/** A code's refusal as an answer (400: the caller is signed in and typed a wrong code). */
export const refusal = (check: Extract<CodeCheck, { failure: string }>) =>
  check.failure === 'code already used'
    ? new AppError(400, 'CODE_USED', CODE_USED)
    : new AppError(400, 'INVALID_CODE', INVALID_CODE);

export interface TwoFactorServiceDeps {
  uow: Scope<'twoFactor' | 'credentials' | 'audit'>;
  clock: Clock;
  /** Seals the TOTP secrets (bound to their account). */
  secrets: SecretBox;
  throttle: AttemptThrottle;
  /** Asks the caller for its password again, checked and throttled as sign-in does (AuthService.reauthenticate). */
  reauthenticate(auth: AuthContext, password: string, address: string): Promise<void>;
}

/**
 * Accounts' TOTP two-factor sign-in (RFC 6238: HMAC-SHA1, 6 digits, 30 s steps): enrolment, codes and
 * recovery codes, the admins' reset, and the setting that requires it of ADMIN accounts.
 */
export class TwoFactorService {
  private readonly audit: AuditTrail;

  constructor(private readonly deps: TwoFactorServiceDeps) {
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'account');
  }

  /** USER its own account, ADMIN any (403 otherwise, as for accounts). */
  async status(auth: AuthContext, accountId: string): Promise<TwoFactorStatus> {
    if (auth.role !== 'ADMIN' && accountId !== auth.accountId) throw forbidden();
    if (!(await this.deps.uow.credentials.findById(accountId))) throw notFound('Account');
    const row = await this.deps.uow.twoFactor.find(accountId);
    const enabledAt = row?.enabled_at ?? null;
    return {
      enabled: enabledAt !== null,
      enabledAt: enabledAt?.toISOString() ?? null,
      recoveryCodesLeft: enabledAt ? await this.deps.uow.twoFactor.recoveryCodesLeft(accountId) : 0,
    };
  }

  isEnabled(accountId: string): Promise<boolean> {
    return this.deps.uow.twoFactor.isEnabled(accountId);
  }

  /**
   * A new secret for the caller, pending until confirmed (replacing a pending one); the only answer that
   * carries it. Only with the account's password again: a stolen session alone cannot enrol another device.
   */
  async start(auth: AuthContext, password: string, address: string): Promise<TwoFactorEnrolment> {
    this.refuseImpersonation(auth);
    if (await this.isEnabled(auth.accountId)) throw enabledAlready();
    await this.deps.reauthenticate(auth, password, address);
    const secret = base32Encode(randomBytes(SECRET_BYTES), false);
    const sealed = this.deps.secrets.seal(secret, sealContext(auth.accountId));
    if (!(await this.deps.uow.twoFactor.startEnrolment(auth.accountId, sealed, this.deps.clock.now()))) {
      throw enabledAlready();
    }
    const label = encodeURIComponent(`${TOTP_ISSUER}:${auth.username}`);
    const query = new URLSearchParams({ secret, issuer: TOTP_ISSUER, algorithm: 'SHA1', digits: '6', period: '30' });
    return { secret, uri: `otpauth://totp/${label}?${query}` };
  }

  /**
   * Enables the caller's pending enrolment with a code of its secret and answers the recovery codes (the
   * only time they are shown). Of concurrent confirmations one wins, the others get 409.
   */
  async confirm(auth: AuthContext, code: string, address: string): Promise<RecoveryCodes> {
    this.refuseImpersonation(auth);
    const { uow, clock, throttle } = this.deps;
    const row = await uow.twoFactor.find(auth.accountId);
    if (!row) throw conflict('No enrolment to confirm: start enabling two-factor sign-in again', 'NO_ENROLMENT');
    if (row.enabled_at) throw conflict('Two-factor sign-in is already enabled', 'TWO_FACTOR_ENABLED');
    const now = clock.now();
    const attempt = await this.beginAttempt(auth.accountId, address, now);
    const step = matchingStep(this.secretOf(row), digitsOf(code), now, STEP_WINDOW);
    if (step === null) {
      await throttle.failed(now);
      await this.auditFailure(auth, 'two-factor.enable', 'invalid code');
      throw refusal({ failure: 'invalid code' });
    }
    await throttle.succeeded(attempt, [twoFactorKey(auth.accountId)]);
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    return uow.transaction(async (tx) => {
      if (!(await tx.twoFactor.enable(auth.accountId, row.secret_sealed, step, now))) {
        throw conflict('Two-factor sign-in was enabled or restarted meanwhile', 'TWO_FACTOR_CHANGED');
      }
      await tx.twoFactor.insertRecoveryCodes(auth.accountId, recoveryCodes.map(hashRecoveryCode));
      await new AuditTrail(tx.audit, clock, 'account').record(auth, 'two-factor.enable', auth.accountId);
      return { recoveryCodes };
    });
  }

  /** Disables the caller's two-factor sign-in with a current code or a recovery code. */
  async disable(auth: AuthContext, code: string, address: string): Promise<void> {
    this.refuseImpersonation(auth);
    const { uow, clock } = this.deps;
    if (!(await uow.twoFactor.isEnabled(auth.accountId))) {
      throw conflict('Two-factor sign-in is not enabled', 'TWO_FACTOR_DISABLED');
    }
    const now = clock.now();
    const check = await this.checkThrottled(auth.accountId, code, address, now);
    if ('failure' in check) {
      await this.auditFailure(auth, 'two-factor.disable', check.failure);
      throw refusal(check);
    }
    await uow.twoFactor.remove(auth.accountId);
    await this.audit.record(auth, 'two-factor.disable', auth.accountId, { with: check.method });
  }

  /** An ADMIN resets another account's two-factor sign-in: it signs in with its password alone again. */
  async reset(auth: AuthContext, accountId: string): Promise<void> {
    if (accountId === auth.accountId) {
      throw conflict('Disable your own two-factor sign-in with a code from your account settings', 'SELF_RESET');
    }
    if (!(await this.deps.uow.credentials.findById(accountId))) throw notFound('Account');
    // Refused, it removes nothing (not even an enrolment the account has not confirmed yet).
    await this.deps.uow.transaction(async (tx) => {
      if (!(await tx.twoFactor.remove(accountId))) {
        throw conflict('This account does not use two-factor sign-in', 'TWO_FACTOR_DISABLED');
      }
      await new AuditTrail(tx.audit, this.deps.clock, 'account').record(auth, 'two-factor.reset', accountId);
    });
  }

  /**
   * Checks a code (TOTP or recovery) of an account with two-factor sign-in, counted by the throttle like a
   * password (429 past the limit). A TOTP code's time step is taken at once: the same code, or an older
   * one, is refused afterwards; a recovery code is used up.
   */
  async checkThrottled(accountId: string, code: string, address: string, now: Date): Promise<CodeCheck> {
    const attempt = await this.beginAttempt(accountId, address, now);
    let check: CodeCheck;
    try {
      check = await this.check(accountId, code, now);
    } catch (error) {
      await this.deps.throttle.forget(attempt);
      throw error;
    }
    if ('failure' in check) await this.deps.throttle.failed(now);
    else await this.deps.throttle.succeeded(attempt, [twoFactorKey(accountId)]);
    return check;
  }

  async settings(): Promise<SecuritySettings> {
    return { requireTwoFactorForAdmins: await this.deps.uow.twoFactor.requireAdminTwoFactor() };
  }

  async updateSettings(auth: AuthContext, body: SecuritySettings): Promise<SecuritySettings> {
    await this.deps.uow.twoFactor.setRequireAdminTwoFactor(body.requireTwoFactorForAdmins, this.deps.clock.now());
    await this.deps.uow.audit.recordBy(
      auth,
      { action: 'settings.update', targetType: 'settings', targetId: 'security', details: { ...body } },
      this.deps.clock.now(),
    );
    return this.settings();
  }

  /** Whether the caller is an ADMIN the settings send to enrol (not while impersonating: the admin is elsewhere). */
  async enrolmentRequired(auth: AuthContext): Promise<boolean> {
    if (auth.role !== 'ADMIN' || isImpersonating(auth)) return false;
    if (!(await this.deps.uow.twoFactor.requireAdminTwoFactor())) return false;
    return !(await this.deps.uow.twoFactor.isEnabled(auth.accountId));
  }

  private async check(accountId: string, code: string, now: Date): Promise<CodeCheck> {
    const row = await this.deps.uow.twoFactor.find(accountId);
    if (!row?.enabled_at) return { failure: 'invalid code' };
    const digits = digitsOf(code);
    if (/^\d{6}$/.test(digits)) {
      const step = matchingStep(this.secretOf(row), digits, now, STEP_WINDOW);
      if (step === null) return { failure: 'invalid code' };
      return (await this.deps.uow.twoFactor.useStep(accountId, step))
        ? { method: 'totp' }
        : { failure: 'code already used' };
    }
    return (await this.deps.uow.twoFactor.useRecoveryCode(accountId, hashRecoveryCode(code), now))
      ? { method: 'recovery-code' }
      : { failure: 'invalid code' };
  }

  private beginAttempt(accountId: string, address: string, now: Date) {
    const { throttle } = this.deps;
    const keys = { account: twoFactorKey(accountId), address: `address:${address}` };
    return throttle.begin(
      Object.values(keys),
      [
        [keys.address, throttle.limits.maxFailuresPerAddress],
        [keys.account, throttle.limits.maxFailuresPerUsername],
      ],
      now,
    );
  }

  private secretOf(row: { account_id: string; secret_sealed: string }): Buffer {
    const secret = base32Decode(this.deps.secrets.open(row.secret_sealed, sealContext(row.account_id)));
    if (!secret) throw new Error('A stored two-factor secret is not base32');
    return secret;
  }

  private refuseImpersonation(auth: AuthContext): void {
    if (isImpersonating(auth))
      throw forbidden("Two-factor sign-in is changed by its account's owner, not while impersonating");
  }

  private auditFailure(auth: AuthContext, action: string, reason: string) {
    return this.deps.uow.audit.recordBy(
      auth,
      { action, targetType: 'account', targetId: auth.accountId, result: 'failure', details: { reason } },
      this.deps.clock.now(),
    );
  }
}

/** A secret is bound to its account: a sealed value copied to another account's row does not open. */
const sealContext = (accountId: string) => `two-factor:${accountId}`;

/** A TOTP code as typed ("123 456") without its space. */
const digitsOf = (code: string) => (/^\d{3} ?\d{3}$/.test(code.trim()) ? code.replace(/\s/g, '') : code.trim());

/** `abcd-efgh-ijkl-mnop`: 80 random bits in lower-case base32. */
function newRecoveryCode(): string {
  const text = base32Encode(randomBytes(RECOVERY_CODE_BYTES), false).toLowerCase();
  return text.match(/.{4}/g)?.join('-') ?? text;
}
