import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freeBytes, hasRoom, waitForRoom } from './disk-room.js';

const dir = mkdtempSync(join(tmpdir(), 'streamcloud-disk-room-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('room for recordings on the disk', () => {
  it("reads the folder's free space, and compares it with the minimum", async () => {
    const free = await freeBytes(dir);
    expect(free).toBeGreaterThan(0);
    expect(await hasRoom(dir, 1)).toBe(true);
    expect(await hasRoom(dir, (free ?? 0) * 1000 + 1e12)).toBe(false);
    // A folder that cannot be asked does not hold recordings back.
    expect(await freeBytes(join(dir, 'missing'))).toBeNull();
    expect(await hasRoom(join(dir, 'missing'), Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it('waits while there is none, saying so once, until the node stops waiting', async () => {
    const aborter = new AbortController();
    const said: Array<number | null> = [];
    const waiting = waitForRoom(dir, {
      signal: aborter.signal,
      minFree: Number.MAX_SAFE_INTEGER,
      pollMs: 10,
      onWait: (free) => said.push(free),
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    aborter.abort();
    expect(await waiting).toBe(false);
    expect(said).toHaveLength(1);
    expect(said[0]).toBeGreaterThan(0);
    expect(await waitForRoom(dir, { signal: new AbortController().signal, minFree: 1, onWait: () => undefined })).toBe(
      true,
    );
  });
});
