import { describe, expect, it } from 'vitest';
import { HLS_ENDED_LINGER_MS, PlaylistLifetimes } from './playlist-lifetime.js';

/** The one rule by which a stream's HLS playlists outlive its push, on its ingest node and on its edges. */
describe('PlaylistLifetimes', () => {
  it('keeps the playlists unchanged until the grace ends, then ended for the linger, then none', () => {
    const lifetimes = new PlaylistLifetimes<string>();
    expect(lifetimes.played('in')).toBeNull();
    lifetimes.keep('in', 'ladder');
    expect(lifetimes.played('in')).toEqual({ content: 'ladder', ended: false });
    lifetimes.end('in');
    const endedAt = Date.now();
    expect(lifetimes.played('in')).toEqual({ content: 'ladder', ended: true });
    // A second end (the edge's read of the status after its pull's own end) does not restart the linger.
    lifetimes.end('in');
    expect(lifetimes.played('in', endedAt + HLS_ENDED_LINGER_MS - 1000)).toEqual({ content: 'ladder', ended: true });
    expect(lifetimes.played('in', endedAt + HLS_ENDED_LINGER_MS + 1000)).toBeNull();
    expect(lifetimes.played('in')).toBeNull();
  });

  it('a push that resumes keeps them going; one that ends without playlists ends nothing', () => {
    const lifetimes = new PlaylistLifetimes<string>();
    lifetimes.end('in');
    expect(lifetimes.played('in')).toBeNull();
    lifetimes.keep('in', 'first');
    lifetimes.end('in');
    lifetimes.keep('in', 'second');
    expect(lifetimes.played('in')).toEqual({ content: 'second', ended: false });
    lifetimes.forget('in');
    expect(lifetimes.played('in')).toBeNull();
  });
});
