// A light HLS load: many viewers of one output in this process, each reading the output as a player that does not
// know LL-HLS does — its playlist, then every new whole segment (and an init segment per period) — over its own
// keep-alive connection. Each viewer speaks HTTP/1.1 on a raw socket (a request line out, a status line, headers and
// a Content-Length or chunked body in, the body counted and dropped): node:http's client cost the bench ~0.8 ms of
// CPU per viewer-second, more than the node it measures, so a node's limit could not be told from the bench's.
// The viewers keep their own counts; `hlsLoad` adds, stops and reports them.
import net from 'node:net';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const HEAD_END = Buffer.from('\r\n\r\n');
/** A response head longer than this is not the node's. */
const HEAD_LIMIT = 16 * 1024;

/**
 * One keep-alive HTTP/1.1 connection to the node, a request at a time: `get(url, text)` answers the status, the
 * Location header, the body's length (and its text when `text`). A connection the node closed while idle is opened
 * again on the next request.
 */
class Connection {
  socket = null;
  pending = null;
  head = Buffer.alloc(0);
  body = null;

  get(url, text = false) {
    const target = new URL(url);
    if (!this.socket || this.socket.destroyed) this.open(target);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error('timed out')), 10_000);
      this.pending = {
        text,
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n\r\n`);
    });
  }

  open(target) {
    this.socket = net.connect(Number(target.port), target.hostname);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk) => this.read(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('the node closed the connection')));
  }

  fail(error) {
    const pending = this.pending;
    this.pending = null;
    this.head = Buffer.alloc(0);
    this.body = null;
    this.socket?.destroy();
    pending?.reject(error);
  }

  read(chunk) {
    let data = chunk;
    while (data.length > 0 && this.pending) {
      if (!this.body) {
        this.head = Buffer.concat([this.head, data]);
        const end = this.head.indexOf(HEAD_END);
        if (end === -1) {
          if (this.head.length > HEAD_LIMIT) this.fail(new Error('a response head too long'));
          return;
        }
        data = this.head.subarray(end + 4);
        this.body = this.parseHead(this.head.subarray(0, end).toString('latin1'));
        this.head = Buffer.alloc(0);
      }
      data = this.body.chunked ? this.readChunked(data) : this.readLength(data);
      if (this.body.done) this.finish();
    }
  }

  parseHead(head) {
    const [statusLine, ...lines] = head.trimStart().split('\r\n');
    const headers = new Map(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    return {
      status: Number(statusLine.split(' ')[1]),
      location: headers.get('location'),
      chunked: /chunked/i.test(headers.get('transfer-encoding') ?? ''),
      remaining: Number(headers.get('content-length') ?? 0),
      bytes: 0,
      parts: [],
      done: false,
      sizeLine: '',
    };
  }

  take(data, count) {
    const part = data.subarray(0, count);
    this.body.bytes += part.length;
    this.body.remaining -= part.length;
    if (this.pending.text) this.body.parts.push(part);
    return data.subarray(part.length);
  }

  readLength(data) {
    const rest = this.take(data, this.body.remaining);
    this.body.done = this.body.remaining === 0;
    return rest;
  }

  /** A chunked body: each chunk's size line, its bytes and their CRLF; a size of 0 (and its CRLF) ends it. */
  readChunked(data) {
    let rest = data;
    while (rest.length > 0 && !this.body.done) {
      if (this.body.remaining > 0) {
        rest = this.take(rest, this.body.remaining);
        continue;
      }
      const lineEnd = rest.indexOf('\n');
      if (lineEnd === -1) {
        this.body.sizeLine += rest.toString('latin1');
        return Buffer.alloc(0);
      }
      const line = (this.body.sizeLine + rest.subarray(0, lineEnd).toString('latin1')).trim();
      this.body.sizeLine = '';
      rest = rest.subarray(lineEnd + 1);
      if (line === '') continue; // the CRLF after a chunk's bytes
      const size = Number.parseInt(line, 16);
      if (size === 0) {
        // The last chunk: its CRLF (no trailers from the node) follows.
        this.body.done = true;
        rest = rest.subarray(rest.indexOf('\n') + 1);
      } else this.body.remaining = size;
    }
    return rest;
  }

  finish() {
    const { status, location, bytes, parts } = this.body;
    const pending = this.pending;
    this.pending = null;
    this.body = null;
    pending.resolve({ status, location, bytes, text: pending.text ? Buffer.concat(parts).toString() : '' });
  }

  close() {
    this.pending = null;
    this.socket?.destroy();
  }
}

/** A media playlist's media sequence, target duration, segments (msn and URI) and init segments' URIs. */
export function parseMediaPlaylist(text, base) {
  const lines = text.split('\n').map((line) => line.trim());
  let msn = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? 0);
  const target = Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(text)?.[1] ?? 1);
  const segments = [];
  const inits = new Set();
  for (const line of lines) {
    const map = /^#EXT-X-MAP:.*URI="([^"]+)"/.exec(line);
    if (map) inits.add(new URL(map[1], base).href);
    if (line === '' || line.startsWith('#')) continue;
    segments.push({ msn: msn++, uri: new URL(line, base).href });
  }
  return { target, segments, inits: [...inits], ended: text.includes('#EXT-X-ENDLIST') };
}

/** One viewer: opens a session (the node's redirect), then reads the playlist and each new segment until stopped. */
async function runViewer(uri, viewer, stopped) {
  const connection = new Connection();
  try {
    const opened = await connection.get(uri);
    if (opened.status !== 302 || !opened.location) throw new Error(`opening answered ${opened.status}`);
    const playlistUrl = new URL(opened.location, uri).href;
    const initsRead = new Set();
    while (!stopped()) {
      const playlist = await connection.get(playlistUrl, true);
      viewer.bytes += playlist.bytes;
      if (playlist.status !== 200) throw new Error(`the playlist answered ${playlist.status}`);
      const { target, segments, inits } = parseMediaPlaylist(playlist.text, playlistUrl);
      for (const init of inits.filter((each) => !initsRead.has(each))) {
        initsRead.add(init);
        viewer.bytes += (await connection.get(init)).bytes;
      }
      // A player starts a few segments behind the live edge; this one at the newest whole segment.
      const fresh = segments.filter((segment) => segment.msn > (viewer.lastMsn ?? segments.at(-2)?.msn ?? -1));
      for (const segment of fresh) {
        if (stopped()) break;
        const answer = await connection.get(segment.uri);
        if (answer.status !== 200) throw new Error(`segment ${segment.msn} answered ${answer.status}`);
        viewer.bytes += answer.bytes;
        viewer.segments++;
        viewer.lastMsn = segment.msn;
        viewer.firstSegmentMs ??= performance.now() - viewer.startedAt;
      }
      viewer.edgeSeen = Math.max(viewer.edgeSeen, segments.at(-1)?.msn ?? -1);
      // Players reload a changed playlist after a target duration, an unchanged one after half of it (RFC 8216 6.3.4).
      await sleep((fresh.length > 0 ? 1 : 0.5) * target * 1000);
    }
  } catch (error) {
    viewer.error = error.message;
  } finally {
    connection.close();
  }
}

/**
 * Viewers of the HLS output at `uri`: `grow(n)` adds viewers (their starts spread over `spreadMs`) until there are
 * n; `snapshot()` their counts; `stop()` ends them all.
 */
export function hlsLoad(uri, spreadMs = 2000) {
  const viewers = [];
  const runs = [];
  let stopped = false;
  return {
    viewers,
    async grow(count) {
      const adding = count - viewers.length;
      for (let index = 0; index < adding; index++) {
        const viewer = {
          startedAt: performance.now(),
          bytes: 0,
          segments: 0,
          lastMsn: null,
          edgeSeen: -1,
          firstSegmentMs: null,
        };
        viewers.push(viewer);
        runs.push(runViewer(uri, viewer, () => stopped));
        await sleep(spreadMs / adding);
      }
    },
    async stop() {
      stopped = true;
      await Promise.all(runs);
    },
  };
}
