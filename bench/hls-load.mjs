// A light HLS load: many viewers of one output in this process, each reading the output as a player that does not
// know LL-HLS does — its playlist, then every new whole segment (and an init segment per period) — over its own
// keep-alive connection, with node:http (no WHATWG streams per body: a fetch per segment would cost the bench more
// CPU than the node it measures). The viewers keep their own counts; `hlsLoad` adds, stops and reports them.
import http from 'node:http';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** GET `url` on `agent`: status, headers and the body's length (and its text when `text`), the body drained. */
function get(agent, url, text = false) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      let bytes = 0;
      const chunks = [];
      response.on('data', (chunk) => {
        bytes += chunk.length;
        if (text) chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode,
          location: response.headers.location,
          bytes,
          text: text ? Buffer.concat(chunks).toString() : '',
        }),
      );
      response.on('error', reject);
    });
    request.setTimeout(10_000, () => request.destroy(new Error('timed out')));
    request.on('error', reject);
  });
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
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const opened = await get(agent, uri);
    if (opened.status !== 302 || !opened.location) throw new Error(`opening answered ${opened.status}`);
    const playlistUrl = new URL(opened.location, uri).href;
    const initsRead = new Set();
    while (!stopped()) {
      const playlist = await get(agent, playlistUrl, true);
      viewer.bytes += playlist.bytes;
      if (playlist.status !== 200) throw new Error(`the playlist answered ${playlist.status}`);
      const { target, segments, inits } = parseMediaPlaylist(playlist.text, playlistUrl);
      for (const init of inits.filter((each) => !initsRead.has(each))) {
        initsRead.add(init);
        viewer.bytes += (await get(agent, init)).bytes;
      }
      // A player starts a few segments behind the live edge; this one at the newest whole segment.
      const fresh = segments.filter((segment) => segment.msn > (viewer.lastMsn ?? segments.at(-2)?.msn ?? -1));
      for (const segment of fresh) {
        if (stopped()) break;
        const answer = await get(agent, segment.uri);
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
    agent.destroy();
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
