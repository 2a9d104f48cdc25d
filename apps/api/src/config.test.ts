import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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
    });
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

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must start with postgres:// or postgresql://'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET: must be at least 32 characters'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ ADMIN_USERNAME: 'boss' }, 'ADMIN_PASSWORD: ADMIN_USERNAME and ADMIN_PASSWORD must be set together'],
    [{ ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: '123' }, 'ADMIN_PASSWORD: must be at least 6 characters'],
  ])('refuses %j with a message naming the variable', (env, text) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(text);
  });
});
