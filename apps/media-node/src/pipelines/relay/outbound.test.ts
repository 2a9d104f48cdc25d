import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectOutbound, relayPolicies } from './outbound.js';
import { RelayFailure } from './target.js';

const strict = relayPolicies({ allowPrivate: false });
const lenient = relayPolicies({ allowPrivate: true });

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function failure(promise: Promise<unknown>): Promise<RelayFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RelayFailure) return error;
    throw error;
  }
  throw new Error('it connected');
}

describe('relay destinations', () => {
  it('are public only unless private networks are allowed; multicast groups count as private; metadata never', () => {
    expect(strict.connections.allows('8.8.8.8')).toBe(true);
    expect(strict.connections.allows('127.0.0.1')).toBe(false);
    expect(strict.datagrams.allows('10.1.2.3')).toBe(false);
    expect(strict.datagrams.allows('239.1.2.3')).toBe(false);
    expect(lenient.connections.allows('127.0.0.1')).toBe(true);
    expect(lenient.datagrams.allows('239.1.2.3')).toBe(true);
    expect(lenient.connections.allows('239.1.2.3')).toBe(false);
    for (const policy of [lenient.connections, lenient.datagrams]) {
      expect(policy.allows('169.254.169.254')).toBe(false);
      expect(policy.allows('0.0.0.0')).toBe(false);
    }
  });

  it('refuses a loopback address or name at once (fatal) unless allowed; a closed port is worth retrying', async () => {
    const port = await unusedPort();
    for (const host of ['127.0.0.1', 'localhost']) {
      const refused = await failure(connectOutbound({ host, port, tls: false }, strict.connections));
      expect(refused.kind).toBe('fatal');
      expect(refused.message).toBe(
        `${host} cannot be reached from the media node (private, loopback and link-local addresses are refused unless the operator allows private networks)`,
      );
    }
    const closed = await failure(connectOutbound({ host: '127.0.0.1', port, tls: false }, lenient.connections));
    expect(closed.kind).toBe('target');
    expect(closed.message).toBe(`connection refused by 127.0.0.1:${port}`);
  });

  it('ends at once (fatal) for a host that does not exist, naming DNS', async () => {
    // .invalid names never resolve (RFC 6761).
    const missing = await failure(
      connectOutbound({ host: 'nowhere.invalid', port: 1935, tls: false }, lenient.connections),
    );
    expect(missing.kind).toBe('fatal');
    expect(missing.message).toBe('the host nowhere.invalid was not found (DNS)');
  });
});
