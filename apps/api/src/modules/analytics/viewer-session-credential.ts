import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { VIEWER_SESSION_MAX_MS } from '@streamcloud/contract';

/**
 * The viewer session credential: `vs1.<session id>.<expiry, Unix seconds>.<HMAC-SHA256(key, "<output id>.<session
 * id>.<expiry>")>`, issued by `GET /play/{id}` to the player and carried by its beacons. Stateless, bound to one
 * output (a credential of another output does not verify), unguessable (the session id is a random UUID, the
 * HMAC key derived from the API's root secret), and valid as long as a session is followed.
 */
export class ViewerSessionCredentials {
  constructor(private readonly key: string) {}

  issue(outputId: string, now: Date): string {
    const sessionId = randomUUID();
    const expiry = Math.floor((now.getTime() + VIEWER_SESSION_MAX_MS) / 1000);
    return `vs1.${sessionId}.${expiry}.${this.sign(outputId, sessionId, expiry)}`;
  }

  /** The session id when `credential` is one this API issued for `outputId` and still valid; else null. */
  verify(credential: string, outputId: string, now: Date): string | null {
    const parts = credential.split('.');
    if (parts.length !== 4 || parts[0] !== 'vs1') return null;
    const [, sessionId, expiryText, signature] = parts as [string, string, string, string];
    if (!/^[0-9a-f-]{36}$/.test(sessionId) || !/^\d{1,12}$/.test(expiryText)) return null;
    const expiry = Number(expiryText);
    if (expiry * 1000 < now.getTime()) return null;
    const expected = Buffer.from(this.sign(outputId, sessionId, expiry));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) ? sessionId : null;
  }

  private sign(outputId: string, sessionId: string, expiry: number): string {
    return createHmac('sha256', this.key).update(`${outputId}.${sessionId}.${expiry}`).digest('base64url');
  }
}
