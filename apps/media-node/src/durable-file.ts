import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Replaces `path` with `content` so that a node killed at any moment (or a machine losing power) finds
 * either the old content or the new, never a part: written to `<path>.tmp`, synced, renamed over `path`,
 * and the directory synced so the rename itself is on disk. Files are the node's alone (0600).
 */
export async function writeFileDurably(path: string, content: string): Promise<void> {
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
  const directory = await open(dirname(path), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}
