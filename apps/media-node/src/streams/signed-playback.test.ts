import { createHmac, randomUUID } from 'node:crypto';
import type { NodeSigning } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import type { AssignedStream } from './directory.js';
import { StreamDirectory } from './directory.js';
import type { StateFields } from './manager.js';
import { SignedPlayback, tokenSessionId } from './signed-playback.js';
import { Viewers } from './viewers.js';

/**
 * Issue 34: a stream-wide playback token that caps its sessions (`maxSessions`) holds its cap across the nodes
 * serving the stream's outputs — each node counts the sessions the others reported (AssignedStream.tokenSessions),
 * and the latest started beyond the cap ends wherever it plays.
 */
const SECRET = Buffer.alloc(32, 7);
const STREAM = randomUUID();
const OUTPUT = randomUUID();
const SIGNING: NodeSigning = {
  version: 'v1',
  keys: [{ kid: 'k1', algorithm: 'HS256', publicJwk: null, secret: SECRET.toString('base64url'), revoked: false }],
  revokedTokenIds: [],
};

/** An HS256 playback token, as a customer's backend signs one. */
function mint(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'HS256', kid: 'k1' })}.${part({ exp: Math.floor(Date.now() / 1000) + 600, ...claims })}`;
  return `${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`;
}

/** The stream as this node reads it, with the capped sessions its other nodes reported. */
const assignedWith = (tokenSessions: AssignedStream['tokenSessions'] = []) =>
  ({
    id: STREAM,
    name: 'in',
    ingressName: null,
    outputs: [{ id: OUTPUT, name: 'out', format: 'HLS', access: 'Signed' }],
    signing: { accountId: randomUUID(), version: 'v1' },
    tokenSessions,
    versions: {},
  }) as unknown as AssignedStream;

async function node(assigned: AssignedStream) {
  const reports: StateFields[] = [];
  const directory = new StreamDirectory();
  directory.replace([assigned]);
  const viewers = new Viewers(directory, (_id, fields) => reports.push(fields));
  const signed = new SignedPlayback(
    viewers,
    () => null,
    null,
    async () => SIGNING,
  );
  const read = async (next: AssignedStream) => {
    directory.replace([next]);
    await signed.load([next]);
    signed.update([next]);
  };
  await read(assigned);
  const play = (token: string, id = `hls-${randomUUID()}`) => {
    const verdict = signed.verify(STREAM, { outputId: OUTPUT, streamId: STREAM }, { token, address: null });
    if (!verdict.ok) return { ok: false as const, message: verdict.message };
    const kicked: (string | undefined)[] = [];
    viewers.start({
      id,
      streamId: STREAM,
      outputId: OUTPUT,
      format: 'HLS',
      grant: verdict.grant,
      ipAddress: null,
      bytesOut: () => 0,
      bytesIn: () => 0,
      kick: (reason) => kicked.push(reason),
    });
    return { ok: true as const, grant: verdict.grant, kicked };
  };
  return { signed, viewers, reports, read, play, sweep: () => signed.sweep(() => 'Signed') };
}

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

describe('a stream-wide token capping its sessions', () => {
  const token = mint({ sub: STREAM, jti: 'ticket-9', maxSessions: 2 });
  const tokenId = tokenSessionId('ticket-9');

  it('counts the sessions its stream plays on other nodes: at the cap, a new one is refused', async () => {
    const here = await node(
      assignedWith([
        { tokenId, sessionId: 'elsewhere-1', startedAt: ago(20) },
        { tokenId, sessionId: 'elsewhere-2', startedAt: ago(10) },
      ]),
    );
    expect(here.play(token)).toEqual({ ok: false, message: 'Too many sessions for this token' });
    // Another token's sessions are not its own.
    expect(here.play(mint({ sub: STREAM, jti: 'ticket-10', maxSessions: 2 })).ok).toBe(true);
  });

  it("reports its sessions' token digest, and ends the latest started once another node's make it over the cap", async () => {
    const here = await node(assignedWith([{ tokenId, sessionId: 'elsewhere-1', startedAt: ago(20) }]));
    const admitted = here.play(token, 'hls-here');
    expect(admitted.ok).toBe(true);
    if (!admitted.ok) return;
    expect(admitted.grant).toMatchObject({ sharedAs: tokenId, maxSessions: 2 });
    here.viewers.flush();
    expect(here.reports.at(-1)?.outputs?.[0]?.sessions).toEqual([expect.objectContaining({ id: 'hls-here', tokenId })]);
    expect(here.sweep()).toBe(0);

    // Another node admitted one before it heard of this one: started earlier, it plays on; this one ends.
    await here.read(
      assignedWith([
        { tokenId, sessionId: 'elsewhere-1', startedAt: ago(20) },
        { tokenId, sessionId: 'elsewhere-2', startedAt: ago(15) },
      ]),
    );
    expect(here.sweep()).toBe(1);
    expect(admitted.kicked).toEqual(['Too many sessions for this token']);
  });

  it('is not shared when it names one output (that output plays on one node), nor without a cap', async () => {
    const here = await node(assignedWith([{ tokenId, sessionId: 'elsewhere-1', startedAt: ago(20) }]));
    const forOutput = here.play(mint({ sub: OUTPUT, jti: 'ticket-9', maxSessions: 1 }));
    expect(forOutput.ok && forOutput.grant.sharedAs).toBeNull();
    const uncapped = here.play(mint({ sub: STREAM, jti: 'ticket-11' }));
    expect(uncapped.ok && uncapped.grant.sharedAs).toBeNull();
  });
});
