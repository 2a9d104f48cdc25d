import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** AES-256 needs a 32-byte key. */
export const ENCRYPTION_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/**
 * Reads a 32-byte key written in base64 (or base64url), e.g. the output of `openssl rand -base64 32`.
 * Answers null for anything else, so callers can say what is wrong in their own words.
 */
export function parseEncryptionKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
  return key.length === ENCRYPTION_KEY_BYTES ? key : null;
}

/**
 * The key kept in a file under the data directory, generated once on first use (mode 0600).
 * Used when STORAGE_ENCRYPTION_KEY is not configured; every instance sharing a database must share it.
 */
export async function persistentEncryptionKey(dataDir: string, fileName: string): Promise<Buffer> {
  const path = join(dataDir, fileName);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(path, `${randomBytes(ENCRYPTION_KEY_BYTES).toString('base64')}\n`, {
    mode: 0o600,
    flag: 'wx',
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  await chmod(path, 0o600);
  const key = parseEncryptionKey(await readFile(path, 'utf8'));
  if (!key) throw new Error(`${path} does not hold a ${ENCRYPTION_KEY_BYTES}-byte key in base64`);
  return key;
}

export class SecretBoxError extends Error {}

/**
 * Authenticated encryption of short secrets with AES-256-GCM: a fresh random IV per value, and
 * `context` (e.g. the owning row's id) bound as additional data so a ciphertext cannot be moved to
 * another row. Sealed form: `v1:<iv>:<tag>:<ciphertext>`, each part base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== ENCRYPTION_KEY_BYTES) throw new SecretBoxError(`The key must be ${ENCRYPTION_KEY_BYTES} bytes`);
    this.key = Buffer.from(key);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join(':');
  }

  /** Throws SecretBoxError when the value was sealed with another key or context, or was altered. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, data, ...rest] = sealed.split(':');
    if (version !== VERSION || iv === undefined || tag === undefined || data === undefined || rest.length > 0) {
      throw new SecretBoxError('Not a sealed value');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('The value cannot be decrypted with this key');
    }
  }
}
