import { createSocket, type Socket } from 'node:dgram';
import { writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { type GuardedChild, lastLine, spawnGuarded } from '../../child.js';
import type { Logger } from '../../log.js';
import type { AssignedStream } from '../../streams/directory.js';
import type { StreamManager } from '../../streams/manager.js';
import type { LiveStream } from '../../streams/types.js';
import { type Admission, OPUS, type PeerSession, peerReceiveStats, VP8, WebRtcEndpoint } from './endpoint.js';
import { webRtcFrontEnd } from './front-end.js';

export interface WhipOptions {
  ffmpeg: string;
  manager: StreamManager;
  log: Logger;
  relayUrl: (streamId: string) => string;
  dataDir: string;
  /** STUN servers (NodeConfig.iceServers). */
  iceServers: readonly string[];
}

interface WhipSession extends PeerSession {
  assigned: AssignedStream;
  udp: Socket;
  kinds: Set<string>;
  videoPort: number;
  audioPort: number;
  ffmpeg: GuardedChild | null;
  push: LiveStream | null;
  bytesIn: number;
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
 * `Location`; `DELETE` on that location ends the push (signalling in `endpoint.ts`). werift terminates
 * WebRTC (ICE, DTLS, SRTP); the RTP it receives (VP8, Opus) goes over loopback UDP to an ffmpeg that
 * transcodes it to H.264/AAC and relays it to nginx-rtmp, so HLS, RTMP playback and snapshots work as
 * for any push.
 */
export class WhipIngest extends WebRtcEndpoint<WhipSession, AssignedStream> {
  constructor(private readonly o: WhipOptions) {
    super('whip', 'VP8 video and Opus audio are accepted', o.iceServers);
  }

  protected async admit(
    _request: IncomingMessage,
    name: string,
    token: string | null,
    remoteAddress: string | null,
  ): Promise<Admission<AssignedStream>> {
    const admitted = await this.o.manager.admission.push('WebRTC', name, token, remoteAddress);
    if (admitted.ok) return { ok: true, admitted: admitted.assigned };
    this.o.manager.refusePush(admitted);
    const status = admitted.assigned ? (admitted.reason.includes('token') ? 401 : 409) : 404;
    return { ok: false, status, message: admitted.reason };
  }

  protected async open(base: PeerSession, assigned: AssignedStream): Promise<WhipSession> {
    const videoPort = await freeUdpPortPair();
    let audioPort = await freeUdpPortPair();
    if (audioPort === videoPort) audioPort = videoPort + 2;
    const session: WhipSession = {
      ...base,
      assigned,
      udp: createSocket('udp4'),
      kinds: new Set(),
      videoPort,
      audioPort,
      ffmpeg: null,
      push: null,
      bytesIn: 0,
    };
    session.pc.onTrack.subscribe((track) => {
      session.kinds.add(track.kind);
      track.onReceiveRtp.subscribe((rtp) => {
        if (session.ended) return;
        const packet = rtp.serialize();
        session.bytesIn += packet.length;
        rtp.header.payloadType = track.kind === 'video' ? VP8.payloadType : OPUS.payloadType;
        session.udp.send(rtp.serialize(), track.kind === 'video' ? videoPort : audioPort, '127.0.0.1');
      });
    });
    return session;
  }

  protected connected(session: WhipSession): void {
    void this.startRelay(session);
  }

  protected closed(session: WhipSession, failure: string | null, deliberate: boolean): void {
    session.udp.close();
    void session.ffmpeg?.stop();
    // A DELETE is the publisher's Stop: the stream is over at once, no reconnect grace (docs/decisions.md).
    if (session.push) this.o.manager.endPush(session.push, failure, { stoppedByPublisher: deliberate });
  }

  private async startRelay(session: WhipSession): Promise<void> {
    const { assigned, remoteAddress, kinds, videoPort, audioPort } = session;
    const again = await this.o.manager.admission.push('WebRTC', assigned.name, assigned.accessToken, remoteAddress);
    if (!again.ok) {
      this.o.manager.refusePush(again);
      this.end(session);
      return;
    }
    const lines = ['v=0', 'o=- 0 0 IN IP4 127.0.0.1', 's=whip', 'c=IN IP4 127.0.0.1', 't=0 0'];
    if (kinds.has('video') || kinds.size === 0)
      lines.push(`m=video ${videoPort} RTP/AVP ${VP8.payloadType}`, `a=rtpmap:${VP8.payloadType} ${VP8.rtpmap}`);
    if (kinds.has('audio'))
      lines.push(`m=audio ${audioPort} RTP/AVP ${OPUS.payloadType}`, `a=rtpmap:${OPUS.payloadType} ${OPUS.rtpmap}`);
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
      this.o.relayUrl(assigned.id),
    ]);
    session.ffmpeg = ffmpeg;
    let log = '';
    ffmpeg.stderr.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    void ffmpeg.exited.then((code) => {
      if (!session.ended)
        this.end(session, `transcoding the WebRTC push failed: ${lastLine(log) || `ffmpeg exited with ${code}`}`);
    });
    session.push = this.o.manager.startPush(assigned, 'WebRTC', {
      rawName: assigned.id,
      remoteAddress,
      bytesIn: () => session.bytesIn,
      bytesOut: () => 0,
      kick: () => this.end(session),
      transport: peerReceiveStats(session.pc),
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

/** WHIP on the node's HTTP port: WebRTC pushes relayed into nginx-rtmp. */
export const whipFrontEnd = webRtcFrontEnd(
  'whip',
  'WebRTC ingest is not available on this node',
  ({ config, manager, log, rtmpUrl }) =>
    new WhipIngest({
      ffmpeg: config.ffmpeg,
      manager,
      log,
      relayUrl: rtmpUrl,
      dataDir: config.dataDir,
      iceServers: config.iceServers,
    }),
);
