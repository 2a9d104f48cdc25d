import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ReportBody } from '../control-plane.js';
import { DiskBudget, DvrStore } from '../ll-hls/dvr-store.js';
import { VodLibrary } from './library.js';

const root = mkdtempSync(join(tmpdir(), 'vod-library-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const INPUT = '00000000-0000-4000-8000-000000000001';
const T0 = Date.parse('2026-11-29T08:00:00.000Z');
const libraries: VodLibrary[] = [];
afterEach(() => {
  for (const library of libraries.splice(0)) library.close();
});

let run = 0;
/** A rewind window on disk with `periods` runs of two 1 s segments of `size` bytes each, and a library beside it. */
async function world(o: { periods: number; size: number; maxBytes?: number }) {
  const dir = join(root, `run-${++run}`);
  const budget = new DiskBudget(o.maxBytes ?? 1024 ** 3);
  const store = new DvrStore(join(dir, 'dvr', INPUT, 'main'), budget);
  let msn = 0;
  for (let period = 0; period < o.periods; period++)
    for (let i = 0; i < 2; i++) {
      const segment = { msn, period, periodStart: i === 0, programDate: T0 + msn * 1000, duration: 1 };
      void store.store(segment, Buffer.alloc(o.size, msn), Buffer.from(`init ${period}`));
      msn++;
    }
  const reports: ReportBody[] = [];
  const library = new VodLibrary({ dir: join(dir, 'vod'), budget, send: (report) => reports.push(report) });
  libraries.push(library);
  return { dir, budget, store, library, reports };
}

describe('the VOD of an ended push', () => {
  it("lists the window's segments as a VOD playlist (each period's init, a discontinuity between), reported Available", async () => {
    const { library, store, reports } = await world({ periods: 2, size: 100 });
    await library.keep(INPUT, store);
    const playlist = library.playlist(INPUT, (file) => `${file}?sid=s1`) ?? '';
    expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(playlist.trim().endsWith('#EXT-X-ENDLIST')).toBe(true);
    expect(playlist).not.toMatch(/#EXT-X-(PART|SERVER-CONTROL|PRELOAD-HINT)/);
    expect([...playlist.matchAll(/#EXT-X-MAP:URI="([^"]+)"/g)].map((match) => match[1])).toEqual([
      'init-0.mp4?sid=s1',
      'init-1.mp4?sid=s1',
    ]);
    expect(playlist.match(/#EXT-X-DISCONTINUITY\n/g)).toHaveLength(1);
    expect(playlist.match(/^seg-\d+\.m4s\?sid=s1$/gm)).toHaveLength(4);
    expect(reports).toEqual([
      expect.objectContaining({
        kind: 'vod',
        streamId: INPUT,
        state: 'Available',
        startedAt: new Date(T0).toISOString(),
        endedAt: new Date(T0 + 4000).toISOString(),
        duration: 4,
        size: 400,
      }),
    ]);
    // Its files are its own: the window's folder going (its packager forgotten) leaves them.
    await store.clear();
    expect(await library.file(INPUT, 'seg-3.m4s')).toEqual(Buffer.alloc(100, 3));
    expect((await library.file(INPUT, 'init-1.mp4'))?.toString()).toBe('init 1');
    for (const name of ['seg-9.m4s', 'init-7.mp4', 'part-1.0.m4s', 'vod.json', '../x'])
      expect(await library.file(INPUT, name)).toBeNull();
  });

  it('is replaced by the next session (the old one reported Evicted, its files gone)', async () => {
    const { library, store, reports } = await world({ periods: 1, size: 10 });
    await library.keep(INPUT, store);
    await library.keep(INPUT, store);
    const [first, evicted, second] = reports as Array<Extract<ReportBody, { kind: 'vod' }>>;
    expect(evicted).toEqual({ ...first, state: 'Evicted' });
    expect(second?.vodId).not.toBe(first?.vodId);
    expect(library.has(INPUT)).toBe(true);
  });

  it("goes first when the rewind disk budget is exceeded, before any live window's segment", async () => {
    const { library, store, reports, budget, dir } = await world({ periods: 1, size: 1000, maxBytes: 3000 });
    await library.keep(INPUT, store);
    // Counted once: the window's files are the VOD's hard links.
    expect(budget.used).toBe(2000);
    // Another stream's live window stores 1500 bytes and measures its excess: the VOD goes first.
    const live = new DvrStore(join(dir, 'dvr', 'other', 'main'), budget);
    await live.store(
      { msn: 0, period: 0, periodStart: true, programDate: T0, duration: 1 },
      Buffer.alloc(1500),
      Buffer.from('i'),
    );
    expect(live.overBudgetBy()).toBe(-1500);
    expect(reports.map((report) => 'state' in report && report.state)).toEqual(['Available', 'Evicted']);
    expect(library.has(INPUT)).toBe(false);
    expect(library.playlist(INPUT, (file) => file)).toBeNull();
    await expect.poll(() => existsSync(join(dir, 'vod', INPUT, (reports[0] as { vodId: string }).vodId))).toBe(false);
    // The ended window's own folder going later takes nothing more from the budget.
    await store.clear();
    expect(budget.used).toBe(1500);
  });

  it('is listed again (and reported again) by the node that restarted', async () => {
    const { library, store, dir, reports } = await world({ periods: 1, size: 50 });
    await library.keep(INPUT, store);
    library.close();
    const budget = new DiskBudget(1024 ** 3);
    const again: ReportBody[] = [];
    const restarted = new VodLibrary({ dir: join(dir, 'vod'), budget, send: (report) => again.push(report) });
    libraries.push(restarted);
    expect(again).toEqual(reports);
    expect(budget.used).toBe(100);
    expect(restarted.playlist(INPUT, (file) => file)).toContain('seg-1.m4s');
  });
});
