import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@streamcloud/contract';

const SECRET_BYTES = 32;

/** A new signing secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks writes them. */
export function generateSigningSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key of a secret: the bytes its base64 (after `whsec_`) stands for. */
function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('A signing secret cannot be empty');
  return key;
}

/**
 * One Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed
 * with the secret's bytes; `timestamp` in whole seconds since the epoch.
 */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const digest = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${digest}`;
}

/**
 * The headers of one delivery. With several secrets (a rotation's old one still valid) the signature
 * header lists one signature per secret, separated by spaces: a receiver accepts any that matches.
 */
export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string) {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => sign(secret, id, timestamp, body)).join(' '),
  };
}
