import { isIP } from 'node:net';

/** Bounds of a token's claims: every list a viewer's request is checked against stays short. */
export const CLAIM_LIMITS = {
  idLength: 200,
  ips: 100,
  countries: 300,
  origins: 50,
  maxSessions: 100_000,
  /** Thirty days. */
  maxSessionSeconds: 30 * 24 * 60 * 60,
} as const;

/** The claims of a playback token, checked for shape (what they allow is checked by `verifyPlaybackToken`). */
export interface PlaybackClaims {
  /** The output id or the stream id the token plays. */
  sub: string;
  /** Expiry, seconds since the epoch: no session starts at or after it. */
  exp: number;
  /** Not before, seconds since the epoch. */
  nbf?: number;
  iat?: number;
  /** The token's id, for revocation and for counting its sessions. */
  jti?: string;
  /** Addresses and CIDR blocks (IPv4 and IPv6) the viewer may play from. */
  ips?: string[];
  /** ISO 3166-1 alpha-2 codes of the countries the viewer may play from. */
  countries?: string[];
  /** Page origins (`https://shop.example`, `https://*.example.com`) a browser may play from. */
  origins?: string[];
  /** Sessions of this token playing at once. */
  maxSessions?: number;
  /** How long one session may play, from its start. */
  maxSessionSeconds?: number;
}

/** The claim that is wrong and the rule it breaks, or the claims. */
export type ClaimsCheck = { ok: true; claims: PlaybackClaims } | { ok: false; claim: string; rule: string };

const COUNTRY = /^[A-Z]{2}$/;
const ORIGIN = /^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/;

type Rule = (value: unknown) => string | null;

const seconds: Rule = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number of seconds since the epoch';
const id: Rule = (value) =>
  typeof value === 'string' && value.length > 0 && value.length <= CLAIM_LIMITS.idLength
    ? null
    : `must be a string of 1 to ${CLAIM_LIMITS.idLength} characters`;
const count =
  (max: number): Rule =>
  (value) =>
    Number.isInteger(value) && (value as number) >= 1 && (value as number) <= max
      ? null
      : `must be a whole number from 1 to ${max}`;
const list =
  (max: number, item: (entry: string) => boolean, what: string): Rule =>
  (value) =>
    Array.isArray(value) &&
    value.length >= 1 &&
    value.length <= max &&
    value.every((entry) => typeof entry === 'string' && item(entry))
      ? null
      : `must be a list of 1 to ${max} ${what}`;

/** Whether `entry` is an IP address or a CIDR block of one. */
export function isAddressOrBlock(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const RULES: Record<keyof PlaybackClaims, { required: boolean; rule: Rule }> = {
  sub: { required: true, rule: id },
  exp: { required: true, rule: seconds },
  nbf: { required: false, rule: seconds },
  iat: { required: false, rule: seconds },
  jti: { required: false, rule: id },
  ips: { required: false, rule: list(CLAIM_LIMITS.ips, isAddressOrBlock, 'IP addresses or CIDR blocks') },
  countries: {
    required: false,
    rule: list(CLAIM_LIMITS.countries, (code) => COUNTRY.test(code), 'two-letter ISO country codes in capitals'),
  },
  origins: {
    required: false,
    rule: list(CLAIM_LIMITS.origins, (origin) => ORIGIN.test(origin), 'origins such as https://shop.example'),
  },
  maxSessions: { required: false, rule: count(CLAIM_LIMITS.maxSessions) },
  maxSessionSeconds: { required: false, rule: count(CLAIM_LIMITS.maxSessionSeconds) },
};

const CLAIM_NAMES = Object.keys(RULES) as (keyof PlaybackClaims)[];

/** Checks the shape of a token's payload; claims this list does not name are ignored. */
export function checkClaims(payload: Record<string, unknown>): ClaimsCheck {
  const claims: Record<string, unknown> = {};
  for (const name of CLAIM_NAMES) {
    const value = payload[name];
    const { required, rule } = RULES[name];
    if (value === undefined) {
      if (required) return { ok: false, claim: name, rule: 'is required' };
      continue;
    }
    const broken = rule(value);
    if (broken) return { ok: false, claim: name, rule: broken };
    claims[name] = value;
  }
  return { ok: true, claims: claims as unknown as PlaybackClaims };
}
