import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: './data',
      databaseUrl: undefined,
      adminUsername: undefined,
      adminPassword: undefined,
      jwtSecret: undefined,
      logLevel: 'info',
      consoleDir: undefined,
      gslbHostname: 'localhost',
      gslbUrl: 'http://localhost:8080',
      loginRateLimit: 60,
      scryptCost: { N: 131072, r: 8, p: 1 },
      keyRateLimit: 600,
      storageEncryptionKey: undefined,
      statistics: { prometheusUrl: undefined, scrapeToken: undefined, rawRetentionDays: 7, minuteRetentionDays: 45 },
      analytics: { retentionDays: 30 },
      nodeSilenceSeconds: 15,
      localMediaNode: { enabled: false, hostname: 'localhost', port: 4242 },
      allowPrivateNetworks: false,
      callbackAllowPrivateNetworks: false,
    });
  });

  it("allows private networks for users' destinations only when told", () => {
    expect(loadConfig({ ALLOW_PRIVATE_NETWORKS: 'on' }).allowPrivateNetworks).toBe(true);
    expect(() => loadConfig({ ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow(/ALLOW_PRIVATE_NETWORKS: must be on or off/);
  });

  it('reads and checks CALLBACK_ALLOW_PRIVATE_NETWORKS', () => {
    expect(loadConfig({ CALLBACK_ALLOW_PRIVATE_NETWORKS: 'on' }).callbackAllowPrivateNetworks).toBe(true);
    expect(() => loadConfig({ CALLBACK_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow(
      /CALLBACK_ALLOW_PRIVATE_NETWORKS: must be on or off/,
    );
  });

  it('reads and checks the media node variables', () => {
    expect(
      loadConfig({
        NODE_SILENCE_SECONDS: '6',
        LOCAL_MEDIA_NODE: 'on',
        LOCAL_MEDIA_NODE_HOSTNAME: 'media.example.com',
        LOCAL_MEDIA_NODE_PORT: '4343',
      }),
    ).toMatchObject({
      nodeSilenceSeconds: 6,
      localMediaNode: { enabled: true, hostname: 'media.example.com', port: 4343 },
    });
    expect(() => loadConfig({ NODE_SILENCE_SECONDS: '1' })).toThrow(/NODE_SILENCE_SECONDS/);
    expect(() => loadConfig({ LOCAL_MEDIA_NODE: 'yes' })).toThrow(/LOCAL_MEDIA_NODE: must be on or off/);
  });

  it('reads and checks the usage and metrics variables', () => {
    expect(
      loadConfig({
        PROMETHEUS_URL: 'http://prometheus:9090',
        METRICS_TOKEN: 's'.repeat(16),
        METRICS_RETENTION_DAYS: '3',
        METRICS_MINUTE_RETENTION_DAYS: '60',
      }).statistics,
    ).toEqual({
      prometheusUrl: 'http://prometheus:9090',
      scrapeToken: 's'.repeat(16),
      rawRetentionDays: 3,
      minuteRetentionDays: 60,
    });
    expect(() => loadConfig({ PROMETHEUS_URL: 'ftp://x' })).toThrow(/PROMETHEUS_URL: must be an http\(s\) URL/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(() => loadConfig({ METRICS_RETENTION_DAYS: '0' })).toThrow(/METRICS_RETENTION_DAYS/);
  });

  it('reads and checks the viewer analytics retention', () => {
    expect(loadConfig({ VIEWER_ANALYTICS_RETENTION_DAYS: '90' }).analytics).toEqual({ retentionDays: 90 });
    expect(() => loadConfig({ VIEWER_ANALYTICS_RETENTION_DAYS: '0' })).toThrow(/VIEWER_ANALYTICS_RETENTION_DAYS/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/streamcloud',
      DATABASE_URL: 'postgresql://u@db/streamcloud',
      ADMIN_USERNAME: ' boss ',
      ADMIN_PASSWORD: 'long-enough',
      JWT_SECRET: 'x'.repeat(32),
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/streamcloud',
      databaseUrl: 'postgresql://u@db/streamcloud',
      adminUsername: 'boss',
      adminPassword: 'long-enough',
      logLevel: 'debug',
    });
  });

  it('reads and checks KEY_RATE_LIMIT (requests per API key and minute)', () => {
    expect(loadConfig({ KEY_RATE_LIMIT: '1200' }).keyRateLimit).toBe(1200);
    expect(() => loadConfig({ KEY_RATE_LIMIT: '0' })).toThrow(/KEY_RATE_LIMIT: must be at least 1/);
    expect(() => loadConfig({ KEY_RATE_LIMIT: '1.5' })).toThrow(/KEY_RATE_LIMIT: must be a whole number/);
  });

  it('answers WHIP at GSLB names at GSLB_URL, by default at its own address as `npm start` prints it', () => {
    expect(loadConfig({ GSLB_URL: 'https://gslb.example.com/' }).gslbUrl).toBe('https://gslb.example.com');
    expect(loadConfig({ GSLB_URL: 'https://gslb.example.com:8443' }).gslbUrl).toBe('https://gslb.example.com:8443');
    expect(loadConfig({ GSLB_URL: 'http://gslb.example.com:80' }).gslbUrl).toBe('http://gslb.example.com');
    expect(loadConfig({ PORT: '9090', HOST: '0.0.0.0' }).gslbUrl).toBe('http://localhost:9090');
    expect(loadConfig({ HOST: 'cp.example.com' }).gslbUrl).toBe('http://cp.example.com:8080');
    expect(loadConfig({ HOST: 'fd00::5' }).gslbUrl).toBe('http://[fd00::5]:8080');
  });

  it('is documented: every variable it reads is in the README table', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## API keys'));
    const documented = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]));
    expect(CONFIG_VARIABLES.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("hashes passwords at OWASP's cost unless a test server asks for the low one", () => {
    expect(loadConfig({ PASSWORD_HASH_COST: 'owasp' }).scryptCost).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    expect(loadConfig({ PASSWORD_HASH_COST: 'low' }).scryptCost).toEqual({ N: 2 ** 14, r: 8, p: 1 });
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must start with postgres:// or postgresql://'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET: must be at least 32 characters'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ GSLB_HOSTNAME: 'bad host/name' }, 'GSLB_HOSTNAME: must be a host name'],
    [{ GSLB_URL: 'gslb.example.com' }, 'GSLB_URL: must be an http(s) URL'],
    [{ GSLB_URL: 'rtmp://gslb.example.com' }, 'GSLB_URL: must be an http(s) URL'],
    [{ GSLB_URL: 'https://gslb.example.com/whip' }, 'GSLB_URL: must be scheme://host[:port], without a path'],
    [{ GSLB_URL: 'https://gslb.example.com/?a=1' }, 'GSLB_URL: must be scheme://host[:port], without a path'],
    [{ LOGIN_RATE_LIMIT: '0' }, 'LOGIN_RATE_LIMIT: must be at least 1'],
    [{ PASSWORD_HASH_COST: 'none' }, 'PASSWORD_HASH_COST: must be owasp or low'],
    [{ ADMIN_USERNAME: 'boss' }, 'ADMIN_PASSWORD: ADMIN_USERNAME and ADMIN_PASSWORD must be set together'],
    [{ ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: '123' }, 'ADMIN_PASSWORD: must be at least 6 characters'],
  ])('refuses %j with a message naming the variable', (env, text) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(text);
  });
});
