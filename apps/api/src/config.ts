import { z } from 'zod';
import { ConfigError } from './lib/config-error.js';
import { LOW_SCRYPT, OWASP_SCRYPT, type ScryptCost } from './lib/password.js';
import { ENCRYPTION_KEY_BYTES, parseEncryptionKey } from './lib/secret-box.js';

const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** Whether a URL is an origin only (`https://gslb.example.com`, `http://localhost:8080`), a trailing `/` allowed. */
const isOrigin = (value: string): boolean => {
  const url = URL.parse(value);
  if (!url) return true; // the URL check says what is wrong
  return url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
};

/** The control plane's own address as `npm start` prints it: `localhost` for a loopback or wildcard HOST. */
export function ownOrigin(host: string, port: number): string {
  const shown = ['127.0.0.1', '0.0.0.0', '::', '::1'].includes(host) ? 'localhost' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    ADMIN_USERNAME: z.string().trim().min(1).max(128).optional(),
    ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').max(128).optional(),
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    LOG_LEVEL: LogLevel.default('info'),
    API_WORKERS: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(256).optional(),
    CONSOLE_DIR: z.string().min(1).optional(),
    PASSWORD_HASH_COST: z.enum(['owasp', 'low'], { error: 'must be owasp or low' }).default('owasp'),
    LOGIN_RATE_LIMIT: z.coerce.number().int().min(1, 'must be at least 1').default(60),
    KEY_RATE_LIMIT: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').default(600),
    GSLB_HOSTNAME: z
      .string()
      .regex(/^[A-Za-z0-9.-]+$/, 'must be a host name')
      .max(255)
      .default('localhost'),
    GSLB_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .refine((value) => isOrigin(value), 'must be scheme://host[:port], without a path, query or fragment')
      .optional(),
    STORAGE_ENCRYPTION_KEY: z
      .string()
      .refine(
        (value) => parseEncryptionKey(value) !== null,
        `must be ${ENCRYPTION_KEY_BYTES} bytes in base64 (generate one with: openssl rand -base64 ${ENCRYPTION_KEY_BYTES})`,
      )
      .optional(),
    PROMETHEUS_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(256).optional(),
    METRICS_RETENTION_DAYS: z.coerce.number().int('must be a whole number').min(1).max(3650).default(7),
    METRICS_MINUTE_RETENTION_DAYS: z.coerce.number().int('must be a whole number').min(1).max(3650).default(45),
    VIEWER_ANALYTICS_RETENTION_DAYS: z.coerce.number().int('must be a whole number').min(1).max(3650).default(30),
    NODE_SILENCE_SECONDS: z.coerce.number().int('must be a whole number').min(2).max(3600).default(15),
    LOCAL_MEDIA_NODE: z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
    LOCAL_MEDIA_NODE_HOSTNAME: z
      .string()
      .regex(/^[A-Za-z0-9.-]+$/, 'must be a host name')
      .max(255)
      .default('localhost'),
    LOCAL_MEDIA_NODE_PORT: z.coerce.number().int().min(1).max(65535).default(4242),
    ALLOW_PRIVATE_NETWORKS: z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
    CALLBACK_ALLOW_PRIVATE_NETWORKS: z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
  })
  .refine((env) => (env.ADMIN_USERNAME === undefined) === (env.ADMIN_PASSWORD === undefined), {
    message: 'ADMIN_USERNAME and ADMIN_PASSWORD must be set together',
    path: ['ADMIN_PASSWORD'],
  });

/** Every variable the control plane reads (README.md's configuration table lists each). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  jwtSecret: string | undefined;
  logLevel: z.infer<typeof LogLevel>;
  /** API processes on PostgreSQL (API_WORKERS; the number of cores when unset); PGlite runs one. */
  apiWorkers: number | undefined;
  consoleDir: string | undefined;
  /** Host of the global load-balancing ingest endpoints (RTMP, SRT, RTSP). */
  gslbHostname: string;
  /**
   * Where WHIP at a stream's GSLB name is answered (307 to a node): the control plane, as publishers reach it
   * (GSLB_URL; by default its own address, `http://localhost:8080`). An origin without a trailing `/`.
   */
  gslbUrl: string;
  /** Login requests per minute and address, failed or not. */
  loginRateLimit: number;
  /** The password hashing cost: OWASP's, or (PASSWORD_HASH_COST=low, test servers only) an eighth of it. */
  scryptCost: ScryptCost;
  /** Requests per API key and minute. */
  keyRateLimit: number;
  /** Key of the storage secrets' encryption; when unset, one is generated once under dataDir. */
  storageEncryptionKey: Buffer | undefined;
  /** Usage and metrics: Prometheus to read series from, the /metrics scrape token, retention in days. */
  statistics: {
    prometheusUrl: string | undefined;
    scrapeToken: string | undefined;
    rawRetentionDays: number;
    minuteRetentionDays: number;
  };
  /** Viewer beacons (issue 37): days their events, sessions and minute rollups are kept. */
  analytics: { retentionDays: number };
  /** A node with no report for this long has its Ingestion inputs set to Error. */
  nodeSilenceSeconds: number;
  /** The media node `npm start` runs on this machine (scripts/start.mjs turns it on). */
  localMediaNode: { enabled: boolean; hostname: string; port: number };
  /** Whether destinations users choose (storage endpoints, callbacks) may be private or loopback addresses. */
  allowPrivateNetworks: boolean;
  /** Webhook callbacks (only) may reach private and loopback addresses (self-hosted receivers, tests). */
  callbackAllowPrivateNetworks: boolean;
};

export { ConfigError } from './lib/config-error.js';

/** Reads the environment; a bad value stops the start with a message naming the variable and the rule. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    jwtSecret: e.JWT_SECRET,
    logLevel: e.LOG_LEVEL,
    apiWorkers: e.API_WORKERS,
    consoleDir: e.CONSOLE_DIR,
    gslbHostname: e.GSLB_HOSTNAME,
    gslbUrl: e.GSLB_URL ? new URL(e.GSLB_URL).origin : ownOrigin(e.HOST, e.PORT),
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    scryptCost: e.PASSWORD_HASH_COST === 'low' ? LOW_SCRYPT : OWASP_SCRYPT,
    keyRateLimit: e.KEY_RATE_LIMIT,
    storageEncryptionKey: e.STORAGE_ENCRYPTION_KEY
      ? (parseEncryptionKey(e.STORAGE_ENCRYPTION_KEY) ?? undefined)
      : undefined,
    statistics: {
      prometheusUrl: e.PROMETHEUS_URL,
      scrapeToken: e.METRICS_TOKEN,
      rawRetentionDays: e.METRICS_RETENTION_DAYS,
      minuteRetentionDays: e.METRICS_MINUTE_RETENTION_DAYS,
    },
    analytics: { retentionDays: e.VIEWER_ANALYTICS_RETENTION_DAYS },
    nodeSilenceSeconds: e.NODE_SILENCE_SECONDS,
    localMediaNode: {
      enabled: e.LOCAL_MEDIA_NODE === 'on',
      hostname: e.LOCAL_MEDIA_NODE_HOSTNAME,
      port: e.LOCAL_MEDIA_NODE_PORT,
    },
    allowPrivateNetworks: e.ALLOW_PRIVATE_NETWORKS === 'on',
    callbackAllowPrivateNetworks: e.CALLBACK_ALLOW_PRIVATE_NETWORKS === 'on',
  };
}
