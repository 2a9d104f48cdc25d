import { isIP } from 'node:net';
import { hostname } from 'node:os';

/** Where the node's media services listen; the node tells the control plane (PUT /node/media). */
export interface MediaPorts {
  rtmp: number;
  srt: number;
  rtsp: number;
  /** SRT viewers: a port of its own, since an SRT listener's direction is fixed before the caller names its stream. */
  srtPlayback: number;
}

export interface NodeConfig {
  controlPlaneUrl: string;
  nodeToken: string;
  /** Port of the node control API; WHIP and HLS are served on it too. */
  port: number;
  /** Address every listener binds to. */
  bindHost: string;
  /** The name viewers and streamers reach this node by (shown in /metadata). */
  publicHostname: string;
  mediaPorts: MediaPorts;
  /** MEDIA_DATA_DIR; empty: a temporary directory the node makes at start and removes when it stops. */
  dataDir: string;
  /**
   * RECORDINGS_DIR, recording files and their journal: keep it across restarts so unfinished uploads are
   * finished; empty: `<dataDir>/recordings`.
   */
  recordingsDir: string;
  /** A push that ends is reported Idle only after this long without a new push of the same stream. */
  reconnectGraceMs: number;
  /** Load, metrics and usage are reported this often. */
  reportIntervalMs: number;
  /** The assigned streams (stop requests, new outputs, cleared sessions) are read this often. */
  pollIntervalMs: number;
  /** A relay whose destination keeps failing this long ends in Error. */
  relayGiveUpMs: number;
  /** A storage object's copy kept for a fallback is removed once unused this long. */
  fallbackCopyMaxIdleMs: number;
  /** An edge pull of a stream stops once it has had no viewer on this node this long. */
  edgeIdleMs: number;
  /** DVR_MAX_BYTES: what every stream's rewind window may take on this node's disk together (the oldest go). */
  dvrMaxBytes: number;
  /**
   * WebRTC feeds kept running without a viewer, so the next viewer joins at the feed's next keyframe: at
   * most `limit` of them on the node (0: none), each stopped after `idleMs` without a viewer.
   */
  warmFeeds: { limit: number; idleMs: number };
  /**
   * WEBRTC_ICE_SERVERS: STUN servers (`stun:host:port`, comma-separated) the node asks for its public address,
   * for a node behind NAT (e.g. a cloud VM whose public address is not on its interface); none by default.
   */
  iceServers: string[];
  /** Relays may reach private and loopback addresses (and multicast groups): ALLOW_PRIVATE_NETWORKS=on. */
  allowPrivateNetworks: boolean;
  /**
   * LL_HLS_REMUX=on: H.264/AAC LL-HLS variants remuxed in the node's process (ll-hls/remux/); off (the default): every
   * variant packaged by an ffmpeg of its own. Off by default until the remuxer's output plays as smoothly as
   * ffmpeg's: in the quiet latency bench (2026-11-30) hls.js stalled once or twice a minute on it and played
   * ~370 ms further behind (origin median 1270–1286 ms against 897 ms with ffmpeg).
   */
  llHlsRemux: boolean;
  ffmpeg: string;
  ffprobe: string;
  nginx: string;
  nginxRtmpModule: string;
  /** The monospace font the transcoder's epoch time encoder draws with. */
  font: string;
  /**
   * GEOIP_OVERRIDES: countries of addresses the GeoLite2 database cannot know (`10.1.0.7=FR,::1=DE`: private
   * networks, a lab, tests), looked up before it for playback tokens that restrict countries.
   */
  geoOverrides: Map<string, string>;
  logLevel: 'silent' | 'error' | 'info' | 'debug';
}

export class ConfigError extends Error {}

const port = (env: NodeJS.ProcessEnv, key: string, fallback: number): number => {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535)
    throw new ConfigError(`${key} must be a port number (0 to 65535)`);
  return value;
};

const millis = (env: NodeJS.ProcessEnv, key: string, fallback: number): number => {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 50)
    throw new ConfigError(`${key} must be a number of milliseconds (at least 50)`);
  return value;
};

const stunServers = (env: NodeJS.ProcessEnv, key: string): string[] => {
  const servers = (env[key] ?? '')
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean);
  const bad = servers.find((server) => !/^stuns?:[^\s/]+$/.test(server));
  if (bad) throw new ConfigError(`${key}: ${bad} is not a STUN server (stun:host:port)`);
  return servers;
};

const countries = (env: NodeJS.ProcessEnv, key: string): Map<string, string> => {
  const overrides = new Map<string, string>();
  for (const entry of (env[key] ?? '').split(',').map((part) => part.trim())) {
    if (!entry) continue;
    const at = entry.lastIndexOf('=');
    const [address, country] = [entry.slice(0, at), entry.slice(at + 1)];
    if (at < 1 || !isIP(address) || !/^[A-Za-z]{2}$/.test(country))
      throw new ConfigError(`${key}: ${entry} is not an address and a two-letter country code (10.1.0.7=FR)`);
    overrides.set(address, country.toUpperCase());
  }
  return overrides;
};

const count = (env: NodeJS.ProcessEnv, key: string, fallback: number): number => {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${key} must be a whole number (at least 0)`);
  return value;
};

/** Reads the node's environment; see apps/media-node/README.md for every variable. */
export function loadNodeConfig(env: NodeJS.ProcessEnv = process.env): NodeConfig {
  const controlPlaneUrl = env.CONTROL_PLANE_URL?.replace(/\/+$/, '');
  if (!controlPlaneUrl || !/^https?:\/\//i.test(controlPlaneUrl)) {
    throw new ConfigError(
      'CONTROL_PLANE_URL must be the http(s) URL of the control plane (e.g. http://localhost:8080)',
    );
  }
  const nodeToken = env.NODE_TOKEN;
  if (!nodeToken?.startsWith('scn_'))
    throw new ConfigError('NODE_TOKEN must be the node token shown when the node was registered');
  const allowPrivate = env.ALLOW_PRIVATE_NETWORKS || 'off';
  if (allowPrivate !== 'on' && allowPrivate !== 'off')
    throw new ConfigError('ALLOW_PRIVATE_NETWORKS must be on or off');
  const llHlsRemux = env.LL_HLS_REMUX || 'off';
  if (llHlsRemux !== 'on' && llHlsRemux !== 'off') throw new ConfigError('LL_HLS_REMUX must be on or off');
  const logLevel = env.NODE_LOG_LEVEL ?? 'info';
  if (!['silent', 'error', 'info', 'debug'].includes(logLevel))
    throw new ConfigError('NODE_LOG_LEVEL must be silent, error, info or debug');
  return {
    controlPlaneUrl,
    nodeToken,
    port: port(env, 'NODE_PORT', 4242),
    bindHost: env.NODE_BIND || '0.0.0.0',
    publicHostname: env.NODE_HOSTNAME || hostname(),
    mediaPorts: {
      rtmp: port(env, 'RTMP_PORT', 1935),
      srt: port(env, 'SRT_PORT', 9710),
      rtsp: port(env, 'RTSP_PORT', 8554),
      srtPlayback: port(env, 'SRT_PLAY_PORT', 9720),
    },
    dataDir: env.MEDIA_DATA_DIR ?? '',
    recordingsDir: env.RECORDINGS_DIR ?? '',
    reconnectGraceMs: millis(env, 'RECONNECT_GRACE_MS', 5000),
    reportIntervalMs: millis(env, 'REPORT_INTERVAL_MS', 5000),
    pollIntervalMs: millis(env, 'POLL_INTERVAL_MS', 1500),
    relayGiveUpMs: millis(env, 'RELAY_GIVE_UP_MS', 600_000),
    edgeIdleMs: millis(env, 'EDGE_IDLE_MS', 5000),
    dvrMaxBytes: count(env, 'DVR_MAX_BYTES', 20 * 1024 ** 3),
    fallbackCopyMaxIdleMs: millis(env, 'FALLBACK_COPY_MAX_IDLE_MS', 7 * 24 * 3_600_000),
    warmFeeds: {
      limit: count(env, 'WEBRTC_WARM_FEEDS', 4),
      idleMs: millis(env, 'WEBRTC_WARM_IDLE_MS', 120_000),
    },
    iceServers: stunServers(env, 'WEBRTC_ICE_SERVERS'),
    allowPrivateNetworks: allowPrivate === 'on',
    llHlsRemux: llHlsRemux === 'on',
    ffmpeg: env.FFMPEG_PATH || '/usr/bin/ffmpeg',
    ffprobe: env.FFPROBE_PATH || '/usr/bin/ffprobe',
    nginx: env.NGINX_PATH || '/usr/sbin/nginx',
    nginxRtmpModule: env.NGINX_RTMP_MODULE || '/usr/lib/nginx/modules/ngx_rtmp_module.so',
    font: env.FONT_PATH || '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf',
    geoOverrides: countries(env, 'GEOIP_OVERRIDES'),
    logLevel: logLevel as NodeConfig['logLevel'],
  };
}
