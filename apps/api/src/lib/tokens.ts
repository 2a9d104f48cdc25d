import { Id } from '@streamcloud/contract';
import { jwtVerify, SignJWT } from 'jose';
import { type Clock, systemClock } from './clock.js';

const ALGORITHM = 'HS256';
const ISSUER = 'streamcloud';
const AUDIENCE = 'streamcloud-api';

export interface TokenClaims {
  accountId: string;
  sessionId: string;
}

/**
 * Signs and checks the API's bearer tokens; a token is only valid while its session is (checked elsewhere).
 * Issue and expiry times follow the app's clock, as the sessions' do.
 */
export class TokenSigner {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly clock: Clock = systemClock,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: TokenClaims, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.accountId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(this.clock.now())
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /**
   * Answers the claims, or null for any token that is malformed, forged, expired or for another audience.
   * The subject and session must be UUIDs: they are looked up as such, and a token signed with a leaked or
   * reused key could carry anything.
   */
  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['sub', 'sid', 'exp'],
        currentDate: this.clock.now(),
      });
      if (!Id.safeParse(payload.sub).success || !Id.safeParse(payload.sid).success) return null;
      return { accountId: payload.sub as string, sessionId: payload.sid as string };
    } catch {
      return null;
    }
  }
}
