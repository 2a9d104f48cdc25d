import {
  type InputConnection,
  type InputFormat,
  MEDIA_PORT_DEFAULTS,
  type MediaPorts,
  type OutputFormat,
} from '@streamcloud/contract';

/** Where a node's media services listen unless the node reported its own ports (PUT /node/media). */
export const MEDIA_PORTS = {
  RTMP: MEDIA_PORT_DEFAULTS.rtmp,
  RTSP: MEDIA_PORT_DEFAULTS.rtsp,
  SRT: MEDIA_PORT_DEFAULTS.srt,
  SRT_PLAYBACK: MEDIA_PORT_DEFAULTS.srtPlayback,
} as const;

export interface MediaHost {
  /** The node's control API: WHIP/WHEP and HLS are served on it. */
  protocol: string;
  hostname: string;
  port: number;
  /** For Internode connections. */
  nodeName: string;
  /** The ports the node reported; the defaults (MEDIA_PORTS) for a node that has not, or for a port it reported as 0. */
  mediaPorts?: MediaPorts | null;
}

export const rtmpPort = (host: MediaHost) => host.mediaPorts?.rtmp || MEDIA_PORTS.RTMP;
const rtspPort = (host: MediaHost) => host.mediaPorts?.rtsp || MEDIA_PORTS.RTSP;
const srtPort = (host: MediaHost) => host.mediaPorts?.srt || MEDIA_PORTS.SRT;
const srtPlaybackPort = (host: MediaHost) => host.mediaPorts?.srtPlayback || MEDIA_PORTS.SRT_PLAYBACK;

/** The origin of a node's control API, where browsers reach its WHIP, WHEP and HLS (and the console's CSP allows). */
export const httpBase = (host: Pick<MediaHost, 'protocol' | 'hostname' | 'port'>) =>
  `${host.protocol.toLowerCase() === 'https' ? 'https' : 'http'}://${host.hostname}:${host.port}`;
const enc = encodeURIComponent;

/** The push endpoint of a stream in its format, on the node it is assigned to. */
export function ingestConnection(format: InputFormat, host: MediaHost, name: string): InputConnection {
  switch (format) {
    case 'WebRTC':
      return { signallingUri: `${httpBase(host)}/whip/${enc(name)}` };
    case 'Internode':
      return { hostname: host.hostname, streamNode: host.nodeName };
    case 'RTMP':
      return { uri: `rtmp://${host.hostname}:${rtmpPort(host)}/live/${enc(name)}` };
    case 'RTSP':
      return { uri: `rtsp://${host.hostname}:${rtspPort(host)}/live/${enc(name)}` };
    case 'SRT':
      return { uri: `srt://${host.hostname}:${srtPort(host)}?streamid=${enc(name)}` };
  }
}

/** The playback endpoint of a viewer output. */
export function playbackConnection(
  format: OutputFormat,
  host: MediaHost,
  name: string,
): { uri?: string; signallingUri?: string } {
  switch (format) {
    case 'WebRTC':
      return { signallingUri: `${httpBase(host)}/whep/${enc(name)}` };
    case 'RTMP':
      return { uri: `rtmp://${host.hostname}:${rtmpPort(host)}/live/${enc(name)}` };
    case 'SRT':
      return { uri: `srt://${host.hostname}:${srtPlaybackPort(host)}?streamid=${enc(name)}` };
    case 'HLS':
      return { uri: `${httpBase(host)}/hls/${enc(name)}/index.m3u8` };
  }
}
