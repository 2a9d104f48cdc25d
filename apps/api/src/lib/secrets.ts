import { createHmac, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A secret kept in a file under the data directory, generated on first use; the file is kept 0600. */
export async function persistentSecret(dataDir: string, fileName: string): Promise<string> {
  const path = join(dataDir, fileName);
  try {
    const secret = (await readFile(path, 'utf8')).trim();
    await chmod(path, 0o600);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  await writeFile(path, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return (await readFile(path, 'utf8')).trim();
}

/** A key for one purpose (token signing, anti-forgery, …) derived from the root secret. */
export const deriveKey = (secret: string, purpose: string): string =>
  createHmac('sha256', secret).update(purpose).digest('base64url');
