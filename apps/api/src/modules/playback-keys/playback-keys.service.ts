import { createHash, randomUUID } from 'node:crypto';
import {
  type NodeSigning,
  type OutputAccess,
  PLAYBACK_KEYS_MAX,
  PLAYBACK_TOKEN_REVOCATIONS_MAX,
  type PlaybackKey,
  type PlaybackKeyCreate,
  type PlaybackKeyCreated,
  type PlaybackTokenInspect,
  type PlaybackTokenInspection,
  type PlaybackTokenRevocation,
  type PlaybackTokenRevoke,
  type PublicJwk,
} from '@streamcloud/contract';
import { generateSigningKey, PlaybackKeyring, readToken, verifyPlaybackToken } from '@streamcloud/playback-tokens';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { secretContext, toNodeKey, toPlaybackKey, toVerificationKey } from './playback-key-material.js';
import type { PlaybackKeyRow, PlaybackTokenRevocationRow } from './playback-keys.repository.js';

const toRevocation = (row: PlaybackTokenRevocationRow): PlaybackTokenRevocation => ({
  jti: row.jti,
  accountId: row.account_id,
  revokedAt: row.revoked_at.toISOString(),
});

export interface PlaybackKeysServiceDeps {
  uow: Scope<'playbackKeys' | 'access' | 'audit'>;
  clock: Clock;
  secrets: SecretBox;
  /**
   * Tells the nodes serving an account's streams to read them now (NodesService.pushStreamsOf): a revocation
   * reaches them within a round trip, and they end the sessions playing with what was revoked.
   */
  pushToNodes?: (accountId: string) => Promise<unknown>;
  /** An output's access policy (the streams module's): only a Signed output takes playback tokens. */
  outputPolicy: (outputId: string) => Promise<OutputAccess | null>;
  /** Whether a node serves a stream (or an output) of an account: only such a node reads the account's keys. */
  servesAccount: (nodeId: string, accountId: string) => Promise<boolean>;
}

/** Each account's signing version: a digest of its keys (each revocation included) and of its revocations' marks. */
function signingVersions(
  accountIds: string[],
  keys: readonly PlaybackKeyRow[],
  marks: readonly { account_id: string; count: number; first: Date; last: Date }[],
): Map<string, string> {
  const parts = new Map<string, string[]>(accountIds.map((id) => [id, []]));
  for (const key of [...keys].sort((a, b) => a.id.localeCompare(b.id)))
    parts.get(key.account_id)?.push(`key ${key.id} ${key.revoked_at?.getTime() ?? 'active'}`);
  for (const mark of marks)
    parts
      .get(mark.account_id)
      ?.push(`revoked ${Number(mark.count)} ${new Date(mark.first).getTime()} ${new Date(mark.last).getTime()}`);
  return new Map(
    [...parts].map(([id, lines]) => [
      id,
      createHash('sha256').update(lines.join('\n')).digest('base64url').slice(0, 22),
    ]),
  );
}

/** The inspection of any token on an output that is not Signed: what its node answers whatever the token. */
function policyVerdict(access: 'Public' | 'Private') {
  return access === 'Public'
    ? {
        accepted: true,
        reason: null,
        message: 'This output would play the token',
        detail: 'The output is Public: it plays without any token',
      }
    : {
        accepted: false,
        reason: 'output_not_signed',
        message: 'wrong playback token',
        detail: 'The output is Private: it plays its static viewer token only; make it Signed to play playback tokens',
      };
}

/** The JWS `alg` a key's tokens carry. */
const HEADER_ALG = { ES256: 'ES256', Ed25519: 'EdDSA', HS256: 'HS256' } as const;

/** Accounts' playback signing keys: made (shown once), listed and revoked; and the test of a token. */
export class PlaybackKeysService {
  private readonly audit: AuditTrail;

  constructor(private readonly deps: PlaybackKeysServiceDeps) {
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'playback-key');
  }

  /** A key for the caller's account (an ADMIN impersonating: the owner's), at most PLAYBACK_KEYS_MAX active. */
  async create(auth: AuthContext, body: PlaybackKeyCreate): Promise<PlaybackKeyCreated> {
    const id = randomUUID();
    const generated = await generateSigningKey(body.algorithm);
    const named = { kid: id, alg: HEADER_ALG[body.algorithm] };
    const publicJwk = generated.algorithm === 'HS256' ? null : ({ ...generated.publicJwk, ...named } as PublicJwk);
    const secret = generated.algorithm === 'HS256' ? Buffer.from(generated.secret).toString('base64url') : null;
    const row = await this.deps.uow.transaction(async ({ playbackKeys }) => {
      if ((await playbackKeys.lockAndCountActive(auth.accountId)) >= PLAYBACK_KEYS_MAX) {
        throw conflict(
          `An account has at most ${PLAYBACK_KEYS_MAX} active playback signing keys: revoke one first`,
          'PLAYBACK_KEY_LIMIT',
        );
      }
      return playbackKeys.insert({
        id,
        account_id: auth.accountId,
        name: body.name,
        algorithm: body.algorithm,
        public_jwk: publicJwk && JSON.stringify(publicJwk),
        sealed_secret: secret && this.deps.secrets.seal(secret, secretContext(id)),
        created_at: this.deps.clock.now(),
      });
    });
    await this.audit.record(auth, 'playback-key.create', id, { name: row.name, algorithm: row.algorithm });
    return {
      ...toPlaybackKey(row),
      privateKeyPem: generated.algorithm === 'HS256' ? null : generated.privatePem,
      privateJwk:
        generated.algorithm === 'HS256' ? null : ({ ...generated.privateJwk, ...named } as PublicJwk & { d: string }),
      secret,
    };
  }

  async list(auth: AuthContext, account: string | undefined): Promise<PlaybackKey[]> {
    const scope = this.deps.uow.access.accountScope(auth, account);
    return (await this.deps.uow.playbackKeys.list(scope)).map(toPlaybackKey);
  }

  /** Its account or an ADMIN revokes a key (another account: 404); of concurrent revocations one wins, the others 409. */
  async revoke(auth: AuthContext, id: string): Promise<void> {
    // A key always has an account (account_id is not null).
    const owner = (await this.deps.uow.access.require(auth, 'playbackKey', id)).ownerId as string;
    if (!(await this.deps.uow.playbackKeys.revoke(id, this.deps.clock.now()))) {
      throw conflict('The playback key is already revoked', 'ALREADY_REVOKED');
    }
    await this.audit.record(auth, 'playback-key.revoke', id, { accountId: owner });
    this.push(owner);
  }

  /**
   * The version of each account's signing material (keys and revoked token ids) a node verifies with: it changes
   * whenever a key is made or revoked, or the revoked ids change. Nodes read the material again only then.
   */
  async signingVersionsOf(accountIds: string[]): Promise<Map<string, string>> {
    const { playbackKeys } = this.deps.uow;
    const [keys, marks] = await Promise.all([
      playbackKeys.ofAccounts(accountIds),
      playbackKeys.revocationMarksOf(accountIds),
    ]);
    return signingVersions(accountIds, keys, marks);
  }

  /** An account's signing material for a node that serves one of its streams (404 for any other node). */
  async signingFor(node: NodeIdentity, accountId: string): Promise<NodeSigning> {
    if (!(await this.deps.servesAccount(node.id, accountId))) throw notFound('Account');
    const { playbackKeys } = this.deps.uow;
    const [keys, marks, revoked] = await Promise.all([
      playbackKeys.ofAccounts([accountId]),
      playbackKeys.revocationMarksOf([accountId]),
      playbackKeys.revokedTokenIdsOf([accountId]),
    ]);
    return {
      version: signingVersions([accountId], keys, marks).get(accountId) ?? '',
      keys: keys.map((row) => toNodeKey(row, this.deps.secrets)),
      revokedTokenIds: revoked.map((row) => row.jti),
    };
  }

  /** Pushes a revocation to the account's nodes without holding up the answer (a node missed reads it at its next poll). */
  private push(accountId: string): void {
    void this.deps.pushToNodes?.(accountId).catch(() => undefined);
  }

  /** Revokes a token id for the caller's account (an ADMIN impersonating: the owner's); again is 409. */
  async revokeToken(auth: AuthContext, body: PlaybackTokenRevoke): Promise<PlaybackTokenRevocation> {
    const row = await this.deps.uow.transaction(async ({ playbackKeys }) => {
      if ((await playbackKeys.lockAndCountRevocations(auth.accountId)) >= PLAYBACK_TOKEN_REVOCATIONS_MAX) {
        throw conflict(
          `An account has at most ${PLAYBACK_TOKEN_REVOCATIONS_MAX} revoked token ids: revoke the key instead`,
          'PLAYBACK_TOKEN_REVOCATION_LIMIT',
        );
      }
      return playbackKeys.revokeToken(auth.accountId, body.jti, this.deps.clock.now());
    });
    if (!row) throw conflict('The token is already revoked', 'ALREADY_REVOKED');
    this.push(auth.accountId);
    await this.deps.uow.audit.recordBy(
      auth,
      { action: 'playback-token.revoke', targetType: 'playback-token', targetId: body.jti, details: {} },
      this.deps.clock.now(),
    );
    return toRevocation(row);
  }

  async revokedTokens(auth: AuthContext, account: string | undefined): Promise<PlaybackTokenRevocation[]> {
    const scope = this.deps.uow.access.accountScope(auth, account);
    return (await this.deps.uow.playbackKeys.revokedTokens(scope)).map(toRevocation);
  }

  /** What the nodes' verifier says of `token` on the output, with the output account's keys. */
  async inspect(auth: AuthContext, body: PlaybackTokenInspect): Promise<PlaybackTokenInspection> {
    const facts = await this.deps.uow.access.require(auth, 'output', body.outputId);
    const read = readToken(body.token);
    const [rows, revokedTokenIds] = await Promise.all([
      facts.ownerId === null ? [] : this.deps.uow.playbackKeys.ofAccount(facts.ownerId),
      this.revokedIdOf(facts.ownerId, read?.payload.jti),
    ]);
    const keys = new PlaybackKeyring(rows.map((row) => toVerificationKey(row, this.deps.secrets)));
    const access = await this.deps.outputPolicy(body.outputId);
    if (!access) throw notFound('Output');
    const output = { id: body.outputId, streamId: facts.streamId ?? body.outputId, access };
    const verdict = verifyPlaybackToken(body.token, {
      keys,
      revokedTokenIds,
      target: { outputId: output.id, streamId: output.streamId },
      viewer: {
        now: body.at ? new Date(body.at) : this.deps.clock.now(),
        address: body.address ?? null,
        country: body.country ?? null,
        origin: body.origin ?? null,
        activeSessions: body.activeSessions ?? 0,
      },
    });
    const written = { header: read?.header ?? null, claims: read?.payload ?? null, output };
    // What the node does before any token is read: a Public output plays anyone, a Private one its static token only.
    if (access !== 'Signed') return { ...written, ...policyVerdict(access), sessionEndsAt: null };
    if (verdict.ok) {
      const sessionEndsAt = verdict.sessionEndsAt?.toISOString() ?? null;
      return {
        ...written,
        accepted: true,
        reason: null,
        message: 'This output would play the token',
        detail: null,
        sessionEndsAt,
      };
    }
    const { reason, message, detail } = verdict;
    return { ...written, accepted: false, reason, message, detail: detail ?? null, sessionEndsAt: null };
  }

  /** The token's id when its account revoked it (the only revocation its verification can meet). */
  private async revokedIdOf(accountId: string | null, jti: unknown): Promise<Set<string>> {
    if (accountId === null || typeof jti !== 'string') return new Set();
    return (await this.deps.uow.playbackKeys.isTokenRevoked(accountId, jti)) ? new Set([jti]) : new Set();
  }
}
