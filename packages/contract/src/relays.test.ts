import { describe, expect, it } from 'vitest';
import { capturePreset } from './capture.js';
import { isDottedIpv4, RELAY_MESSAGES, RelayCreate, RelayUpdate } from './relays.js';

const streamId = '11111111-2222-4333-8444-555555555555';
const issues = (body: object, schema: typeof RelayCreate | typeof RelayUpdate = RelayCreate) =>
  schema.safeParse(body).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);

describe('relay bodies (section 5)', () => {
  it('RTMP needs a server; the key is optional', () => {
    expect(RelayCreate.parse({ streamId, format: 'RTMP', output: { server: 'rtmp://live.example.com/app' } })).toEqual({
      streamId,
      format: 'RTMP',
      autostart: false,
      output: { server: 'rtmp://live.example.com/app' },
      capture: { source: 'Incoming', tracks: capturePreset('All') },
    });
    expect(issues({ streamId, format: 'RTMP', output: { server: '' } })).toEqual([
      ['output.server', RELAY_MESSAGES.serverRequired],
    ]);
    expect(issues({ streamId, format: 'RTMP', output: { server: 'http://x' } })).toEqual([
      ['output.server', RELAY_MESSAGES.serverUrl],
    ]);
  });

  it('CMAF needs an endpoint; timescales are 0 to 96000', () => {
    const parsed = RelayCreate.parse({
      streamId,
      format: 'CMAF',
      output: { endpoint: 'https://ingest.example.com/pub', videoTimescale: 90000, audioTimescale: 0, eventID: '' },
    });
    expect(parsed.output).toEqual({
      endpoint: 'https://ingest.example.com/pub',
      unifiedStreamingPlatform: false,
      eventID: null,
      videoTimescale: 90000,
      audioTimescale: 0,
      metaTimescale: null,
    });
    expect(issues({ streamId, format: 'CMAF', output: { endpoint: ' ' } })).toEqual([
      ['output.endpoint', RELAY_MESSAGES.endpointRequired],
    ]);
    expect(
      issues({
        streamId,
        format: 'CMAF',
        output: { endpoint: 'https://x.example', videoTimescale: 96001, audioTimescale: -1, metaTimescale: 1.5 },
      }),
    ).toEqual([
      ['output.videoTimescale', RELAY_MESSAGES.timescale('Video timescale')],
      ['output.audioTimescale', RELAY_MESSAGES.timescale('Audio timescale')],
      ['output.metaTimescale', RELAY_MESSAGES.timescale('Meta timescale')],
    ]);
  });

  it('UDP needs a dotted IPv4 address; the port is 0 to 65535, 8888 by default', () => {
    expect(RelayCreate.parse({ streamId, format: 'UDPTS', output: { ipAddress: '239.0.0.1' } }).output).toEqual({
      ipAddress: '239.0.0.1',
      port: 8888,
    });
    expect(issues({ streamId, format: 'UDPTS', output: { ipAddress: '256.1.1.1', port: 65536 } })).toEqual([
      ['output.ipAddress', RELAY_MESSAGES.ipAddress],
      ['output.port', RELAY_MESSAGES.port],
    ]);
    for (const good of ['0.0.0.0', '255.255.255.255', '10.1.2.3']) expect(isDottedIpv4(good)).toBe(true);
    for (const bad of ['1.2.3', '01.2.3.4', '1.2.3.4.5', '::1', 'host', '1.2.3.4 '])
      expect(isDottedIpv4(bad)).toBe(false);
  });

  it('refuses an unknown format, a long callback URI and a missing stream id', () => {
    expect(issues({ streamId, format: 'Internode', output: {} })).toEqual([['format', RELAY_MESSAGES.format]]);
    expect(
      issues({
        streamId,
        format: 'UDPTS',
        output: { ipAddress: '1.2.3.4' },
        callbackUri: `https://x.example/${'a'.repeat(250)}`,
      }),
    ).toEqual([['callbackUri', 'Callback URI must be at most 255 characters']]);
    expect(issues({ format: 'UDPTS', output: { ipAddress: '1.2.3.4' } })).toEqual([
      ['streamId', 'Stream ID is required'],
    ]);
  });

  it('an update names the format and may leave out the stream, autostart and capture', () => {
    expect(RelayUpdate.parse({ format: 'RTMP', output: { server: 'rtmps://x.example/app', key: '' } })).toEqual({
      format: 'RTMP',
      output: { server: 'rtmps://x.example/app', key: '' },
    });
  });
});
