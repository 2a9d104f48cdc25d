import { describe, expect, it } from 'vitest';
import { useNodeStub } from '../../../test/helpers.js';
import { closedPort, DEFAULT_STUB_METADATA } from '../../../test/node-stub.js';
import { NODE_CONTROL_TIMEOUT_MS, NodeControlClient } from './node-control.client.js';
import { generateNodeToken, hashNodeToken } from './node-token.js';

const stub = useNodeStub();
const NODE_TOKEN = generateNodeToken();

const target = () => ({
  name: 'stub',
  protocol: 'HTTP',
  hostname: stub.hostname,
  port: stub.port,
  token_hash: hashNodeToken(NODE_TOKEN),
});

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as { statusCode: number; code: string; message: string },
  );
  return { statusCode: error.statusCode, code: error.code, message: error.message };
};

describe('NodeControlClient', () => {
  it('reads GET /metadata and posts /refresh {mode} as JSON, signed for the node', async () => {
    stub.trust(NODE_TOKEN);
    const client = new NodeControlClient();
    expect(await client.metadata(target())).toEqual(DEFAULT_STUB_METADATA);
    expect(await client.refresh(target(), 'Bandwidth')).toEqual({ refreshed: 'Bandwidth' });
    expect(stub.calls).toEqual([
      { method: 'GET', path: '/metadata', body: null },
      { method: 'POST', path: '/refresh', body: { mode: 'Bandwidth' } },
    ]);
  });

  it("gives 502 when the node refuses the credential (another node's token)", async () => {
    stub.trust(generateNodeToken());
    expect(await failure(new NodeControlClient().metadata(target()))).toEqual({
      statusCode: 502,
      code: 'NODE_UNREACHABLE',
      message: `Node stub (127.0.0.1:${stub.port}) is unreachable: it answered HTTP 401`,
    });
  });

  it('accepts the protocol in any case, and an empty refresh answer', async () => {
    stub.set({ rawBody: '' });
    const client = new NodeControlClient();
    expect(await client.refresh({ ...target(), protocol: 'http' }, 'ALL')).toBeNull();
  });

  it('gives up after 3 s by default with a 502, never hangs', async () => {
    expect(NODE_CONTROL_TIMEOUT_MS).toBe(3000);
    stub.set({ delayMs: 10_000 });
    const started = Date.now();
    expect(await failure(new NodeControlClient().metadata(target()))).toEqual({
      statusCode: 502,
      code: 'NODE_UNREACHABLE',
      message: `Node stub (127.0.0.1:${stub.port}) is unreachable: no answer within 3 s`,
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(2900);
    expect(elapsed).toBeLessThan(4500);
  });

  it('names refused connections, unknown hosts and error statuses', async () => {
    const client = new NodeControlClient({ timeoutMs: 2000 });
    const port = await closedPort();
    expect((await failure(client.metadata({ ...target(), port }))).message).toBe(
      `Node stub (127.0.0.1:${port}) is unreachable: host unreachable`,
    );
    expect((await failure(client.metadata({ ...target(), hostname: 'no-such-host.invalid' }))).message).toMatch(
      /is unreachable: (host unreachable|no answer within 2 s)$/,
    );
    stub.set({ status: 503 });
    expect(await failure(client.refresh(target(), 'ALL'))).toEqual({
      statusCode: 502,
      code: 'NODE_UNREACHABLE',
      message: `Node stub (127.0.0.1:${stub.port}) is unreachable: it answered HTTP 503`,
    });
  });

  it('refuses answers over the size limit', async () => {
    stub.set({ metadata: { blob: 'x'.repeat(4096) } });
    const client = new NodeControlClient({ maxAnswerBytes: 1024 });
    expect((await failure(client.metadata(target()))).message).toContain('its answer is larger than 1 KB');
  });

  it('wraps an IPv6 hostname in brackets', async () => {
    const client = new NodeControlClient({ timeoutMs: 1000 });
    const port = await closedPort();
    // ::1 may or may not be configured; either way the call fails fast with a named reason, not a URL error.
    const { message } = await failure(client.metadata({ ...target(), hostname: '::1', port }));
    expect(message).toMatch(new RegExp(`^Node stub \\(::1:${port}\\) is unreachable: `));
    expect(message).not.toContain('not valid');
  });
});
