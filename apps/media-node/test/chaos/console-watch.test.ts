import { describe, expect, it } from 'vitest';
import { judge, NOT_ANSWERED, sample, type Timeline, type Watched, watching } from './console-watch.js';

/** A node watched with what the API and the page said, `ms` after a start 60 s ago. */
function nodeWatched(api: Array<[number, string]>, page: Array<[number, string]>): Watched {
  const start = Date.now() - 60_000;
  const timeline = (entries: Array<[number, string]>): Timeline =>
    entries.map(([ms, value]) => ({ at: start + ms, value, worker: '1' }));
  return {
    ...watching('node chaos-origin', '/nodes', [], { readApi: async () => null, readPage: async () => null }),
    api: timeline(api),
    page: timeline(page),
  };
}

describe("the chaos run's judgment of the console", () => {
  it('notes the API not answering as the end of the state it said before', async () => {
    let answer: { value: string; worker: string } | null = { value: 'Reporting', worker: '1' };
    const watched = watching('node chaos-origin', '/nodes', [], {
      readApi: async () => answer,
      readPage: async () => 'Reporting',
    });
    await sample([watched]);
    answer = null;
    await sample([watched]);
    expect(watched.api.map((state) => state.value)).toEqual(['Reporting', NOT_ANSWERED]);
  });

  it('asks the page only for what the API held while it answered (seed 3: PostgreSQL killed 4.3 s after a change)', () => {
    // The node reported again at 10 s; PostgreSQL died at 14.3 s for 15 s (the page's next read was a 503), and the
    // API said Offline once it answered again: Reporting was answered for 4.3 s, under a poll, so it need not show.
    const watched = nodeWatched(
      [
        [0, 'Offline'],
        [10_000, 'Reporting'],
        [14_300, NOT_ANSWERED],
        [29_900, 'Offline'],
      ],
      [[700, 'Offline']],
    );
    expect(judge([watched], []).failures).toEqual([]);
  });

  it('still fails a state the API answered for longer than a poll and the page did not show', () => {
    const watched = nodeWatched(
      [
        [0, 'Offline'],
        [10_000, 'Reporting'],
        [20_000, NOT_ANSWERED],
      ],
      [[700, 'Offline']],
    );
    expect(judge([watched], []).failures).toEqual([
      expect.stringMatching(/^node chaos-origin: the API said Reporting for 10\.0 s .*the console showed it never/),
    ]);
  });
});
