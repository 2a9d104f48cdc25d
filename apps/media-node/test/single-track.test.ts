import { uriWithToken } from '@streamcloud/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RTCPeerConnection } from 'werift';
import { type Push, pushTestPattern, runTool, waitFor } from './harness.js';
import { createRecording, createStorage, watchRecording } from './recordings.js';
import { downloadObject, type LocalS3Server, listObjects, probeFile, startLocalS3 } from './s3.js';
import { standardIfHls, streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * Pushes with one track only play on every output format: video without audio, and audio without video
 * (nginx-rtmp does not hold audio for video: docs/decisions.md, "One-track pushes").
 */
const world = useMediaNode('single-track');
const { api, createStream, createOutput, messages, status } = streamsOf(world);
let s3: LocalS3Server;
beforeAll(async () => {
  s3 = await startLocalS3(['recordings']);
});
afterAll(async () => {
  await s3?.close();
});

let push: Push | null = null;
const viewers: RTCPeerConnection[] = [];
afterEach(async () => {
  push?.stop();
  push = null;
  for (const pc of viewers.splice(0)) await pc.close();
});

/**
 * The kinds of track (video, audio) a player gets packets of at `url` (RTMP, SRT or HLS) in 3 s, read with
 * ffprobe (by packets: nginx-rtmp's MPEG-TS names both kinds in every fragment, with or without packets).
 */
async function probedTypes(url: string): Promise<string[]> {
  const probe = await runTool(
    'ffprobe',
    ['-v', 'error', '-read_intervals', '%+3', '-show_entries', 'packet=codec_type', '-of', 'csv=p=0', url],
    20_000,
  );
  return [...new Set(probe.stdout.split('\n').map((line) => line.split(',')[0]?.trim()))]
    .filter((type): type is string => Boolean(type))
    .sort();
}

/** A werift WHEP viewer (recvonly video and audio) counting the RTP packets of each kind it gets. */
async function whepViewer(url: string) {
  const pc = new RTCPeerConnection({ iceAdditionalHostAddresses: ['127.0.0.1'], iceUseIpv6: false });
  viewers.push(pc);
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  const got = { video: 0, audio: 0 };
  pc.onTrack.subscribe((track) =>
    track.onReceiveRtp.subscribe(() => {
      got[track.kind === 'audio' ? 'audio' : 'video']++;
    }),
  );
  await pc.setLocalDescription(await pc.createOffer());
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp' },
    body: pc.localDescription?.sdp,
  });
  // A feed that cannot start ends the session, before (409) or after its answer.
  if (answer.status === 201) await pc.setRemoteDescription({ type: 'answer', sdp: await answer.text() });
  return { got, status: answer.status };
}

describe('one-track pushes', () => {
  it('plays a video-only RTMP push over WHEP, HLS (Standard and Low latency), RTMP and SRT, and the stream says nothing failed', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const [webrtc, hls, rtmp, srt] = await Promise.all(
      ['WebRTC', 'HLS', 'RTMP', 'SRT'].map((format) => createOutput(stream.id, format, standardIfHls(format))),
    );
    const lowLatency = await createOutput(stream.id, 'HLS', { hlsLatency: 'Low' });
    push = pushTestPattern(uriOf(stream), 'flv', 120, { tracks: 'video' });
    await status(stream.id, 'Ingestion', 15_000);

    for (const output of [hls, lowLatency, rtmp, srt]) {
      const url = uriWithToken(output?.connection?.uri ?? '', output?.viewer.accessToken ?? null);
      expect(await probedTypes(url), `${output?.format} ${url}`).toEqual(['video']);
    }
    const { got: whep, status: answered } = await whepViewer(webrtc?.connection?.signallingUri ?? '');
    expect(answered).toBe(201);
    await waitFor(
      async () => ({ ...whep }),
      (got) => got.video > 20,
      20_000,
      'video packets over WHEP',
    );
    expect(whep.audio).toBe(0);
    expect((await messages(stream.id)).filter((text) => /fail|cannot/i.test(text))).toEqual([]);
  });

  it('plays an audio-only RTMP push over WHEP (audio only), HLS (Standard and Low latency), RTMP and SRT, and the stream says nothing failed', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const [webrtc, hls, rtmp, srt] = await Promise.all(
      ['WebRTC', 'HLS', 'RTMP', 'SRT'].map((format) => createOutput(stream.id, format, standardIfHls(format))),
    );
    const lowLatency = await createOutput(stream.id, 'HLS', { hlsLatency: 'Low' });
    push = pushTestPattern(uriOf(stream), 'flv', 120, { tracks: 'audio' });
    await status(stream.id, 'Ingestion', 15_000);

    for (const output of [hls, lowLatency, rtmp, srt]) {
      const url = uriWithToken(output?.connection?.uri ?? '', output?.viewer.accessToken ?? null);
      expect(await probedTypes(url), `${output?.format} ${url}`).toEqual(['audio']);
    }
    const { got: whep, status: answered } = await whepViewer(webrtc?.connection?.signallingUri ?? '');
    expect(answered).toBe(201);
    await waitFor(
      async () => ({ ...whep }),
      (got) => got.audio > 20,
      20_000,
      'audio packets over WHEP',
    );
    expect(whep.video).toBe(0);
    expect((await messages(stream.id)).filter((text) => /fail|cannot/i.test(text))).toEqual([]);
  });

  it('records an audio-only push (the reader does not wait for video that never comes)', async () => {
    const storage = await createStorage(api, s3, { path: 'audio-only' });
    const stream = await createStream({ format: 'RTMP' });
    const recording = await createRecording(api, {
      streamId: stream.id,
      storageId: storage.id,
      fileName: 'radio_{uuid}',
      fileFormat: 'MP4',
      capture: { source: 'Incoming', tracks: [{ type: 'Audio' }] },
    });
    push = pushTestPattern(uriOf(stream), 'flv', 8, { tracks: 'audio' });
    await status(stream.id, 'Ingestion', 15_000);
    await push.exited;
    const done = await watchRecording(api, recording.id, (r) => r.state === 'Completed' || r.state === 'Error', 60_000);
    expect(done.last.messages.filter((m) => m.level === 'error')).toEqual([]);
    expect(done.last.state).toBe('Completed');
    const [object] = await listObjects(s3, 'recordings', 'audio-only/');
    const file = await probeFile(await downloadObject(s3, 'recordings', object?.key ?? ''));
    expect(file.streams.map((track) => track.codec_name)).toEqual(['aac']);
    expect(file.duration).toBeGreaterThan(5);
  });
});
