import { describe, expect, it } from 'vitest';
import { ConfigError, loadNodeConfig } from './config.js';

const base = { CONTROL_PLANE_URL: 'http://127.0.0.1:8080', NODE_TOKEN: 'scn_node-token' };

describe('WEBRTC_ICE_SERVERS', () => {
  it('asks no STUN server by default (werift would ask Google’s on every answer)', () => {
    expect(loadNodeConfig(base).iceServers).toEqual([]);
  });

  it('takes a comma-separated list of STUN servers', () => {
    expect(
      loadNodeConfig({ ...base, WEBRTC_ICE_SERVERS: 'stun:stun.example.net:3478, stuns:stun2.example.net' }).iceServers,
    ).toEqual(['stun:stun.example.net:3478', 'stuns:stun2.example.net']);
  });

  it('refuses what is not a STUN server, naming the setting', () => {
    expect(() => loadNodeConfig({ ...base, WEBRTC_ICE_SERVERS: 'turn:relay.example.net' })).toThrow(
      new ConfigError('WEBRTC_ICE_SERVERS: turn:relay.example.net is not a STUN server (stun:host:port)'),
    );
  });
});

describe('LL_HLS_REMUX', () => {
  it('gives each LL-HLS variant its ffmpeg by default; on remuxes H.264/AAC variants in the node', () => {
    expect(loadNodeConfig(base).llHlsRemux).toBe(false);
    expect(loadNodeConfig({ ...base, LL_HLS_REMUX: 'on' }).llHlsRemux).toBe(true);
  });

  it('refuses anything but on and off, naming the setting', () => {
    expect(() => loadNodeConfig({ ...base, LL_HLS_REMUX: 'yes' })).toThrow(
      new ConfigError('LL_HLS_REMUX must be on or off'),
    );
  });
});
