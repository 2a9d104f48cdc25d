import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../../test/helpers.js';
import { NodeOrigins } from './node-origins.js';

const consoleDir = mkdtempSync(join(tmpdir(), 'node-origins-console-'));
writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Streamcloud</title>');
afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

const t = useTestApp(() => ({ consoleDir }), { roles: true });

const connectSrc = (csp: unknown) => /connect-src ([^;]*)/.exec(String(csp))?.[1];

const node = (name: string, connection: Record<string, unknown>) => ({
  name,
  connection,
  settings: { bandwidthLimitMbps: 1000, publicIPv4: '203.0.113.10', privateIPv4: '10.0.0.10' },
  location: { code: 'EU', description: 'Frankfurt', geo: { latitude: 50.11, longitude: 8.68 } },
  opened: false,
  enabled: false,
});

describe("the console's connect-src", () => {
  it("lets a console page reach the registered nodes' origins and nothing else; API answers only 'self'", async () => {
    for (const [name, connection] of [
      ['edge-1', { protocol: 'HTTPS', hostname: 'edge-1.example.com', port: 8443 }],
      ['edge-2', { protocol: 'HTTP', hostname: '203.0.113.7', port: 4242 }],
    ] as const) {
      const created = await t.roles.call('ADMIN', 'POST', '/api/v1/nodes', node(name, connection));
      expect(created.statusCode).toBe(201);
    }
    const page = await t.request({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
    expect(connectSrc(page.headers['content-security-policy'])).toBe(
      "'self' http://203.0.113.7:4242 https://edge-1.example.com:8443",
    );
    // The preview's storyboard thumbnails are the nodes' images.
    expect(/img-src ([^;]*)/.exec(String(page.headers['content-security-policy']))?.[1]).toBe(
      "'self' data: blob: http://203.0.113.7:4242 https://edge-1.example.com:8443",
    );
    const api = await t.request({ method: 'GET', url: '/healthz' });
    expect(connectSrc(api.headers['content-security-policy'])).toBe("'self'");

    // A node removed through this API counts for the next page at once (no wait for the list's max age).
    const nodes = (await t.roles.call('ADMIN', 'GET', '/api/v1/nodes')).json() as { id: string; name: string }[];
    const edge2 = nodes.find((entry) => entry.name === 'edge-2');
    expect((await t.roles.call('ADMIN', 'DELETE', `/api/v1/nodes/${edge2?.id}`)).statusCode).toBeLessThan(300);
    const after = await t.request({ method: 'GET', url: '/' });
    expect(connectSrc(after.headers['content-security-policy'])).toBe("'self' https://edge-1.example.com:8443");
  });

  it('counts a node this process registers outside the nodes routes (the local node, the autoscaler) at once', async () => {
    const before = await t.request({ method: 'GET', url: '/' });
    expect(connectSrc(before.headers['content-security-policy'])).not.toContain('127.0.0.1:4299');
    await t.app.services.nodes.ensureLocalNode({ name: 'local', hostname: '127.0.0.1', port: 4299 });
    const after = await t.request({ method: 'GET', url: '/' });
    expect(connectSrc(after.headers['content-security-policy'])).toContain('http://127.0.0.1:4299');
  });
});

describe('NodeOrigins', () => {
  const at = (hostname: string, port = 80, protocol = 'HTTP') => ({ protocol, hostname, port });

  it('reads the node list once per max age, one read at a time, each origin once', async () => {
    let now = 0;
    const read = vi.fn(async () => [at('b.example'), at('a.example', 443, 'HTTPS'), at('b.example')]);
    const origins = new NodeOrigins(read, 5000, () => now);
    const [first, second] = await Promise.all([origins.current(), origins.current()]);
    expect(first).toEqual(['http://b.example:80', 'https://a.example:443']);
    expect(second).toBe(first);
    now = 4999;
    await origins.current();
    expect(read).toHaveBeenCalledOnce();
    now = 5000;
    read.mockResolvedValueOnce([at('c.example')]);
    expect(await origins.current()).toEqual(['http://c.example:80']);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('keeps the last list when a read fails, and leaves out what a CSP could not hold', async () => {
    let now = 0;
    const read = vi.fn(async () => [at('a.example'), at("evil.example 'unsafe-inline'"), at('x;y')]);
    const origins = new NodeOrigins(read, 1000, () => now);
    expect(await origins.current()).toEqual(['http://a.example:80']);
    now = 2000;
    read.mockRejectedValueOnce(new Error('database gone'));
    expect(await origins.current()).toEqual(['http://a.example:80']);
  });
});
