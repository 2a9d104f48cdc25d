import { randomUUID } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { type GuardedChild, lastLine, spawnGuarded } from './child.js';
import { text } from './hls.js';
import type { Logger } from './log.js';
import type { PublishSession, StreamManager } from './streams.js';

export interface WhipOptions {
  ffmpeg: string;
  manager: StreamManager;
  log: Logger;
  relayUrl: (inputId: string) => string;
  dataDir: string;
}

/** What the node accepts from WebRTC publishers; ffmpeg turns it into H.264/AAC for RTMP and HLS. */
const VIDEO = { payloadType: 96, mimeType: 'video/VP8', clockRate: 90000, rtpmap: 'VP8/90000' };
const AUDIO = { payloadType: 111, mimeType: 'audio/opus', clockRate: 48000, channels: 2, rtpmap: 'opus/48000/2' };
/** A WebRTC connection that stays disconnected this long is over. */
const DISCONNECT_GRACE_MS = 5000;

interface WhipSession {
  id: string;
  name: string;
  pc: RTCPeerConnection;
  udp: Socket;
  ffmpeg: GuardedChild | null;
  push: PublishSession | null;
  bytesIn: number;
  ended: boolean;
  end(failure: string | null): void;
}

const freeUdpPortPair = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port % 2 === 0 ? port : port - 1));
    });
  });

/**
 * WebRTC ingest over WHIP (RFC 9725): `POST /whip/<name>` with an SDP offer (`Authorization: Bearer
 * <access token>` for private streams, or `?token=`) answers 201 with the SDP answer and the session's
 * `Location`; `DELETE` on that location ends the push. werift terminates WebRTC (ICE, DTLS, SRTP); the
 * RTP it receives (VP8, Opus) goes over loopback UDP to an ffmpeg that transcodes it to H.264/AAC and
 * relays it to nginx-rtmp, so HLS, RTMP playback and snapshots work as for any push.
 */
export class WhipIngest {
  private readonly sessions = new Map<string, WhipSession>();

  constructor(private readonly o: WhipOptions) {}

  async close(): Promise<void> {
    for (const session of this.sessions.values()) session.end(null);
  }

  async handle(
    request: IncomingMessage,
    response: ServerResponse,
    segments: string[],
    query: URLSearchParams,
    body: Buffer,
  ): Promise<void> {
    const [name, sessionId] = segments;
    const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'location' };
    if (!name) return text(response, 404, 'Not found');
    if (request.method === 'DELETE' && sessionId) {
      const session = this.sessions.get(sessionId);
      if (!session || session.name !== name) return text(response, 404, 'No such WHIP session');
      session.end(null);
      response.writeHead(200, cors);
      response.end();
      return;
    }
    if (request.method === 'PATCH' && sessionId) {
      // Trickle ICE is not needed: the answer carries every candidate of this node.
      response.writeHead(405, { ...cors, allow: 'DELETE' });
      response.end();
      return;
    }
    if (request.method !== 'POST' || sessionId) return text(response, 405, 'Use POST with an SDP offer');
    if (!(request.headers['content-type'] ?? '').startsWith('application/sdp'))
      return text(response, 415, 'The offer must be application/sdp');
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim() ?? null;
    const remoteAddress = (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '') || null;
    const admitted = await this.o.manager.admitPush('WebRTC', name, bearer ?? query.get('token'), remoteAddress);
    if (!admitted.ok) {
      this.o.manager.refusePush(admitted);
      return text(response, admitted.input ? (admitted.reason.includes('token') ? 401 : 409) : 404, admitted.reason);
    }
    const input = admitted.input;
    const pc = new RTCPeerConnection({
      codecs: {
        video: [
          new RTCRtpCodecParameters({
            mimeType: VIDEO.mimeType,
            clockRate: VIDEO.clockRate,
            payloadType: VIDEO.payloadType,
            rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
          }),
        ],
        audio: [
          new RTCRtpCodecParameters({
            mimeType: AUDIO.mimeType,
            clockRate: AUDIO.clockRate,
            channels: AUDIO.channels,
            payloadType: AUDIO.payloadType,
          }),
        ],
      },
      iceAdditionalHostAddresses: ['127.0.0.1'],
      iceUseIpv6: false,
    });
    const udp = createSocket('udp4');
    const id = randomUUID();
    const videoPort = await freeUdpPortPair();
    let audioPort = await freeUdpPortPair();
    if (audioPort === videoPort) audioPort = videoPort + 2;
    const session: WhipSession = {
      id,
      name,
      pc,
      udp,
      ffmpeg: null,
      push: null,
      bytesIn: 0,
      ended: false,
      end: (failure) => {
        if (session.ended) return;
        session.ended = true;
        this.sessions.delete(id);
        void pc.close();
        udp.close();
        void session.ffmpeg?.stop();
        if (session.push) this.o.manager.endPush(session.push, failure);
      },
    };
    this.sessions.set(id, session);
    const kinds = new Set<string>();
    pc.onTrack.subscribe((track) => {
      kinds.add(track.kind);
      track.onReceiveRtp.subscribe((rtp) => {
        if (session.ended) return;
        const packet = rtp.serialize();
        session.bytesIn += packet.length;
        rtp.header.payloadType = track.kind === 'video' ? VIDEO.payloadType : AUDIO.payloadType;
        udp.send(rtp.serialize(), track.kind === 'video' ? videoPort : audioPort, '127.0.0.1');
      });
    });
    let disconnectTimer: NodeJS.Timeout | null = null;
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') {
        if (disconnectTimer) clearTimeout(disconnectTimer);
        disconnectTimer = null;
        if (!session.push && !session.ended)
          void this.startRelay(session, input, remoteAddress, kinds, videoPort, audioPort);
      } else if (state === 'failed') {
        session.end('the WebRTC connection failed');
      } else if (state === 'closed') {
        session.end(null);
      } else if (state === 'disconnected' && !disconnectTimer) {
        disconnectTimer = setTimeout(() => session.end('the WebRTC connection was lost'), DISCONNECT_GRACE_MS);
        disconnectTimer.unref();
      }
    });
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: body.toString() });
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
    } catch (error) {
      session.end(null);
      return text(
        response,
        400,
        `The offer cannot be answered (VP8 video and Opus audio are accepted): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const sdp = pc.localDescription?.sdp ?? '';
    response.writeHead(201, {
      ...cors,
      'content-type': 'application/sdp',
      location: `/whip/${encodeURIComponent(name)}/${id}`,
    });
    response.end(sdp);
    // An offer whose connection never comes up is dropped.
    setTimeout(() => {
      if (!session.push && !session.ended) session.end(null);
    }, 20_000).unref();
  }

  private async startRelay(
    session: WhipSession,
    input: Parameters<StreamManager['startPush']>[0],
    remoteAddress: string | null,
    kinds: Set<string>,
    videoPort: number,
    audioPort: number,
  ): Promise<void> {
    const again = await this.o.manager.admitPush('WebRTC', input.name, input.accessToken, remoteAddress);
    if (!again.ok) {
      this.o.manager.refusePush(again);
      session.end(null);
      return;
    }
    const lines = ['v=0', 'o=- 0 0 IN IP4 127.0.0.1', 's=whip', 'c=IN IP4 127.0.0.1', 't=0 0'];
    if (kinds.has('video') || kinds.size === 0)
      lines.push(`m=video ${videoPort} RTP/AVP ${VIDEO.payloadType}`, `a=rtpmap:${VIDEO.payloadType} ${VIDEO.rtpmap}`);
    if (kinds.has('audio'))
      lines.push(`m=audio ${audioPort} RTP/AVP ${AUDIO.payloadType}`, `a=rtpmap:${AUDIO.payloadType} ${AUDIO.rtpmap}`);
    const sdpPath = join(this.o.dataDir, `whip-${session.id}.sdp`);
    await writeFile(sdpPath, `${lines.join('\r\n')}\r\n`);
    const ffmpeg = spawnGuarded(this.o.ffmpeg, [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-protocol_whitelist',
      'file,udp,rtp',
      '-fflags',
      '+genpts',
      '-analyzeduration',
      '1000000',
      '-i',
      sdpPath,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-tune',
      'zerolatency',
      '-force_key_frames',
      'expr:gte(t,n_forced*1)',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ar',
      '48000',
      '-f',
      'flv',
      this.o.relayUrl(input.id),
    ]);
    session.ffmpeg = ffmpeg;
    let log = '';
    ffmpeg.stderr.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    void ffmpeg.exited.then((code) => {
      if (!session.ended)
        session.end(`transcoding the WebRTC push failed: ${lastLine(log) || `ffmpeg exited with ${code}`}`);
    });
    session.push = this.o.manager.startPush(input, 'WebRTC', {
      rawName: input.id,
      remoteAddress,
      bytesIn: () => session.bytesIn,
      bytesOut: () => 0,
      kick: () => session.end(null),
    });
    // Keyframes until the first HLS fragment exists: ffmpeg starts decoding at one.
    const pli = setInterval(() => {
      if (session.ended || session.push?.firstFragmentAt) {
        clearInterval(pli);
        return;
      }
      for (const transceiver of session.pc.getTransceivers()) {
        if (transceiver.kind !== 'video') continue;
        const ssrc = transceiver.receiver.tracks[0]?.ssrc;
        if (ssrc) void transceiver.receiver.sendRtcpPLI(ssrc).catch(() => undefined);
      }
    }, 1000);
    pli.unref();
  }
}
