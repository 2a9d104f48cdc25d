/** After the reconnect grace ends without a new push, the playlists end with EXT-X-ENDLIST this long, then 404. */
export const HLS_ENDED_LINGER_MS = 30_000;

/**
 * How long a stream's HLS playlists outlive its push, one rule for the stream's ingest node and its edges:
 * kept unchanged while the push may resume (the reconnect grace: `keep`), then ended with EXT-X-ENDLIST from
 * when the grace ended (`end`) for HLS_ENDED_LINGER_MS, then gone. `T` is what the playlists are made from:
 * the push on its own node, the origin's ladder on an edge.
 */
export class PlaylistLifetimes<T> {
  private readonly last = new Map<string, { content: T; endedAt: number | null }>();

  /** The stream's playlists, made from `content`, are kept (live, or in the reconnect grace). */
  keep(streamId: string, content: T): void {
    this.last.set(streamId, { content, endedAt: null });
  }

  /** The reconnect grace ended without a new push: the playlists end from now (once; a second call changes nothing). */
  end(streamId: string): void {
    const last = this.last.get(streamId);
    if (last && last.endedAt === null) last.endedAt = Date.now();
  }

  forget(streamId: string): void {
    this.last.delete(streamId);
  }

  /** What the stream's playlists are made from, and whether they end; null when there are none (any more). */
  played(streamId: string, now = Date.now()): { content: T; ended: boolean } | null {
    const last = this.last.get(streamId);
    if (!last) return null;
    if (last.endedAt !== null && now - last.endedAt > HLS_ENDED_LINGER_MS) {
      this.last.delete(streamId);
      return null;
    }
    return { content: last.content, ended: last.endedAt !== null };
  }
}
