// A light RTMP publisher for the density bench (issue 39): many pushes of one FLV file from one process, in real
// time, without an ffmpeg each (200 ffmpeg `-c copy` pushers cost ~0.45 % of a core each, as much as the node's own
// work per stream would be allowed, so at 200 they would measure themselves). It does what an encoder's RTMP client
// does on the wire — handshake, connect, createStream, publish, then the file's audio and video tags as RTMP messages
// in 4096-byte chunks (ffmpeg's size) at their timestamps, looping the file — and nothing else (no acknowledgements:
// nginx-rtmp asks none of a publisher).
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

const CHUNK_SIZE = 4096;
const TICK_MS = 20;
/** What a publisher keeps of what the server sent, to find its answers in (they come in the first few KB). */
const HEARD_MAX = 64 * 1024;

/** The FLV file's audio (8) and video (9) tags: type, timestamp (ms) and payload; the file's length in ms. */
export function readFlvTags(path) {
  const file = readFileSync(path);
  const tags = [];
  let offset = file.readUInt32BE(5) + 4;
  while (offset + 11 <= file.length) {
    const type = file[offset] & 0x1f;
    const size = file.readUIntBE(offset + 1, 3);
    const timestamp = file.readUIntBE(offset + 4, 3) | (file[offset + 7] << 24);
    const payload = file.subarray(offset + 11, offset + 11 + size);
    if ((type === 8 || type === 9) && payload.length === size) tags.push({ type, timestamp, payload });
    offset += 11 + size + 4;
  }
  const last = tags.at(-1)?.timestamp ?? 0;
  // One frame's gap after the last tag before the loop starts again (30 fps).
  return { tags, loopMs: last + 33 };
}

/** AMF0 values: numbers, strings, null and flat objects (what the commands carry). */
function amf(value) {
  if (value === null) return Buffer.from([0x05]);
  if (typeof value === 'number') {
    const out = Buffer.alloc(9);
    out[0] = 0x00;
    out.writeDoubleBE(value, 1);
    return out;
  }
  if (typeof value === 'string') return Buffer.concat([Buffer.from([0x02]), utf8(value)]);
  const fields = Object.entries(value).map(([key, field]) => Buffer.concat([utf8(key), amf(field)]));
  return Buffer.concat([Buffer.from([0x03]), ...fields, Buffer.from([0x00, 0x00, 0x09])]);
}

/** An AMF0 short string's body: its length (16 bits) and its bytes. */
function utf8(text) {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** One RTMP message in chunks: a type-0 header, then type-3 headers every CHUNK_SIZE bytes. */
function chunked(csid, type, streamId, timestamp, payload) {
  const extended = timestamp >= 0xffffff;
  const header = Buffer.alloc(12 + (extended ? 4 : 0));
  header[0] = csid;
  header.writeUIntBE(extended ? 0xffffff : timestamp, 1, 3);
  header.writeUIntBE(payload.length, 4, 3);
  header[7] = type;
  header.writeUInt32LE(streamId, 8);
  if (extended) header.writeUInt32BE(timestamp, 12);
  const parts = [header];
  for (let offset = 0; offset < payload.length; offset += CHUNK_SIZE) {
    if (offset > 0) {
      parts.push(Buffer.from([0xc0 | csid]));
      if (extended) {
        const ext = Buffer.alloc(4);
        ext.writeUInt32BE(timestamp);
        parts.push(ext);
      }
    }
    parts.push(payload.subarray(offset, offset + CHUNK_SIZE));
  }
  return Buffer.concat(parts);
}

const command = (...values) => Buffer.concat(values.map(amf));

/**
 * Publishes `flv` (readFlvTags) to the RTMP `url` from `startAt` (ms, Date.now()) on: resolves once the server said
 * NetStream.Publish.Start (with when), rejects on its refusal or a closed connection. `stop()` ends the push.
 */
export function publish(url, flv, scheduler) {
  const target = new URL(url);
  const [, app, ...rest] = target.pathname.split('/');
  const name = decodeURIComponent(rest.join('/')) + target.search;
  const socket = connect({ host: target.hostname, port: Number(target.port || 1935) });
  socket.setNoDelay(true);
  let heard = Buffer.alloc(0);
  let stage = 'handshake';
  const push = { bytes: 0, startedAt: 0, publishing: false, stop: () => socket.destroy() };
  const send = (bytes) => {
    push.bytes += bytes.length;
    socket.write(bytes);
  };
  return new Promise((resolve, reject) => {
    socket.once('connect', () => {
      const c1 = Buffer.alloc(1536);
      send(Buffer.concat([Buffer.from([0x03]), c1]));
    });
    socket.on('error', (error) => reject(error));
    socket.on('close', () => {
      scheduler.remove(push);
      if (!push.publishing) reject(new Error(`${url}: closed during ${stage}: ${heard.toString('latin1')}`));
    });
    socket.on('data', (data) => {
      if (heard.length < HEARD_MAX) heard = Buffer.concat([heard, data]);
      if (stage === 'handshake' && heard.length >= 1 + 1536 * 2) {
        send(heard.subarray(1, 1537));
        heard = heard.subarray(1 + 1536 * 2);
        stage = 'connect';
        const chunkSize = Buffer.alloc(4);
        chunkSize.writeUInt32BE(CHUNK_SIZE);
        send(chunked(2, 1, 0, 0, chunkSize));
        const tcUrl = `rtmp://${target.host}/${app}`;
        send(chunked(3, 20, 0, 0, command('connect', 1, { app, type: 'nonprivate', flashVer: 'FMLE/3.0', tcUrl })));
      }
      const text = heard.toString('latin1');
      if (stage === 'connect' && text.includes('_result')) {
        stage = 'createStream';
        heard = Buffer.alloc(0);
        send(chunked(3, 20, 0, 0, command('createStream', 2, null)));
      } else if (stage === 'createStream' && text.includes('_result')) {
        stage = 'publish';
        heard = Buffer.alloc(0);
        // nginx-rtmp's stream id is always 1.
        send(chunked(8, 20, 1, 0, command('publish', 0, null, name, 'live')));
      } else if (stage === 'publish' && text.includes('NetStream.Publish.Start')) {
        stage = 'publishing';
        heard = Buffer.alloc(0);
        push.publishing = true;
        push.startedAt = Date.now();
        push.next = 0;
        push.loop = 0;
        push.send = send;
        push.flv = flv;
        scheduler.add(push);
        resolve(push);
      } else if (stage === 'publish' && /NetStream\.Publish\.(BadName|Failed)|_error/.test(text)) {
        socket.destroy();
        reject(new Error(`${url}: refused: ${text.replace(/[^\x20-\x7e]+/g, ' ')}`));
      } else if (stage === 'publishing') heard = Buffer.alloc(0);
    });
  });
}

/** One timer for every push: each tick sends every push's tags that are due. */
export function createScheduler() {
  const pushes = new Set();
  const timer = setInterval(() => {
    const now = Date.now();
    for (const push of pushes) {
      const { tags, loopMs } = push.flv;
      const elapsed = now - push.startedAt;
      for (;;) {
        const tag = tags[push.next];
        const at = push.loop * loopMs + tag.timestamp;
        if (at > elapsed) break;
        push.send(chunked(tag.type === 9 ? 6 : 4, tag.type, 1, at, tag.payload));
        push.next++;
        if (push.next === tags.length) {
          push.next = 0;
          push.loop++;
        }
      }
    }
  }, TICK_MS);
  return {
    add: (push) => pushes.add(push),
    remove: (push) => pushes.delete(push),
    close: () => {
      clearInterval(timer);
      for (const push of pushes) push.stop();
      pushes.clear();
    },
  };
}
