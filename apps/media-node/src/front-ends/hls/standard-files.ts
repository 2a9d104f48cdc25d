import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** How long one read of a folder's playlist answers every viewer of it (nginx-rtmp rewrites it once a fragment). */
export const PLAYLIST_FRESH_MS = 100;
/** Fragments kept in memory, all streams together (~100 fragments of 2.5 Mb/s at 2 s); past it the oldest go. */
const FRAGMENT_BUDGET_BYTES = 64 * 1024 * 1024;
/** A fragment is kept no longer than nginx's own copy is (cleanup.ts deletes it a minute after it was written). */
const FRAGMENT_KEEP_MS = 60_000;
/** Folders whose playlist is remembered; past it the least recently read is forgotten. */
const MAX_PLAYLISTS = 4096;

interface PlaylistRead {
  at: number;
  text: Promise<string | null>;
  /** The fragments it lists: complete files (nginx-rtmp writes the playlist once a fragment is closed). */
  listed: Promise<Set<string>>;
}

/**
 * nginx-rtmp's Standard HLS files as the node serves them to many viewers of a stream. Read per request, each
 * viewer cost the node an open, a stat, reads and a close per playlist and per fragment (a third of its CPU with
 * 200 viewers, `npm run bench -- viewers`). Now a folder's playlist is read at most once per PLAYLIST_FRESH_MS
 * (concurrent requests share the read), and a fragment that playlist lists — so complete — is read once and kept in
 * memory (bounded, oldest first). A fragment not listed (not yet complete, or already out of the playlist) is read
 * from the disk and not kept, so a viewer asking for the fragment nginx is still writing cannot leave a part of it
 * for the others.
 */
export class StandardHlsFiles {
  private readonly playlists = new Map<string, PlaylistRead>();
  private readonly fragments = new Map<string, { body: Buffer; at: number }>();
  private fragmentBytes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The playlist `index.m3u8` of `dir`; null while it has none. `fresh`: read now, not answered from a read before. */
  playlist(dir: string, { fresh = false } = {}): Promise<string | null> {
    if (fresh) this.playlists.delete(dir);
    return this.playlistRead(dir).text;
  }

  /** The fragment at `path`; null when there is no such file. */
  async fragment(path: string): Promise<Buffer | null> {
    const kept = this.fragments.get(path);
    if (kept && this.now() - kept.at < FRAGMENT_KEEP_MS) return kept.body;
    const body = await readFile(path).catch(() => null);
    if (body === null) return null;
    const listed = await this.playlistRead(dirname(path)).listed;
    if (listed.has(basename(path))) this.keep(path, body);
    return body;
  }

  private playlistRead(dir: string): PlaylistRead {
    const last = this.playlists.get(dir);
    if (last && this.now() - last.at < PLAYLIST_FRESH_MS) return last;
    const text = readFile(join(dir, 'index.m3u8'), 'utf8').catch(() => null);
    const read: PlaylistRead = { at: this.now(), text, listed: text.then(listedFragments) };
    // A read that found nothing is not remembered: a first viewer waiting for the playlist looks again soon.
    void text.then((found) => {
      if (found === null && this.playlists.get(dir) === read) this.playlists.delete(dir);
    });
    this.playlists.delete(dir);
    this.playlists.set(dir, read);
    if (this.playlists.size > MAX_PLAYLISTS) this.playlists.delete(this.playlists.keys().next().value as string);
    return read;
  }

  private keep(path: string, body: Buffer): void {
    if (body.length > FRAGMENT_BUDGET_BYTES) return;
    const replaced = this.fragments.get(path);
    if (replaced) {
      this.fragments.delete(path);
      this.fragmentBytes -= replaced.body.length;
    }
    this.fragments.set(path, { body, at: this.now() });
    this.fragmentBytes += body.length;
    for (const [oldest, kept] of this.fragments) {
      if (this.fragmentBytes <= FRAGMENT_BUDGET_BYTES && this.now() - kept.at < FRAGMENT_KEEP_MS) break;
      this.fragments.delete(oldest);
      this.fragmentBytes -= kept.body.length;
    }
  }
}

/** The file names a media playlist lists (its URI lines). */
function listedFragments(playlist: string | null): Set<string> {
  const names = new Set<string>();
  for (const line of (playlist ?? '').split('\n')) {
    const uri = line.trim();
    if (uri !== '' && !uri.startsWith('#')) names.add(basename(uri));
  }
  return names;
}
