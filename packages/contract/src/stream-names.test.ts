import { describe, expect, it } from 'vitest';
import {
  makeStreamName,
  outputModeOfName,
  parsePlaybackName,
  streamNameFromUri,
  uriWithToken,
} from './stream-names.js';

const id = '0b9a3c1e-2d4f-4a6b-8c0d-1e2f3a4b5c6d';

describe('stream names', () => {
  it('takes the last path segment, or streamid for SRT', () => {
    expect(streamNameFromUri(`rtmp://node:1935/live/in+${id}`)).toBe(`in+${id}`);
    expect(streamNameFromUri(`rtsp://node:8554/live/pt%2B${id}`)).toBe(`pt+${id}`);
    expect(streamNameFromUri(`srt://node:9710?streamid=in%2B${id}`)).toBe(`in+${id}`);
    expect(streamNameFromUri('srt://node:9710')).toBeNull();
    expect(streamNameFromUri('not a uri')).toBeNull();
  });

  it("reads 'in' then + or whitespace as adjustable transcoding, anything else as passthrough", () => {
    expect(outputModeOfName(`in+${id}`)).toBe('AdjustableTranscode');
    expect(outputModeOfName('in stream')).toBe('AdjustableTranscode');
    expect(outputModeOfName(`pt+${id}`)).toBe('Passthrough');
    expect(outputModeOfName('input')).toBe('Passthrough');
    expect(outputModeOfName(makeStreamName('pt', id))).toBe('Passthrough');
  });

  it('parses playback names: in, out or as, a plus sign, a UUID', () => {
    expect(parsePlaybackName(`out+${id}`)).toEqual({ prefix: 'out', id });
    expect(parsePlaybackName(`as+${id.toUpperCase()}`)).toEqual({ prefix: 'as', id });
    expect(parsePlaybackName(`pt+${id}`)).toBeNull();
    expect(parsePlaybackName(`in+${id}x`)).toBeNull();
    expect(parsePlaybackName('in+not-a-uuid')).toBeNull();
  });

  it('puts a token where the node reads it: in the SRT stream id, else as the token query parameter', () => {
    const token = 'a-b_c';
    expect(uriWithToken(`rtmp://node:1935/live/out%2B${id}`, token)).toBe(
      `rtmp://node:1935/live/out%2B${id}?token=a-b_c`,
    );
    expect(uriWithToken(`http://node:4242/hls/out%2B${id}/index.m3u8`, token)).toBe(
      `http://node:4242/hls/out%2B${id}/index.m3u8?token=a-b_c`,
    );
    expect(uriWithToken(`http://node:4242/whep/out%2B${id}?x=1`, token)).toBe(
      `http://node:4242/whep/out%2B${id}?x=1&token=a-b_c`,
    );
    const srt = uriWithToken(`srt://node:9710?streamid=out%2B${id}`, token);
    expect(srt).toBe(`srt://node:9710?streamid=out%2B${id}%3Ftoken%3Da-b_c`);
    expect(streamNameFromUri(srt)).toBe(`out+${id}?token=a-b_c`);
    expect(uriWithToken(`rtmp://node:1935/live/out%2B${id}`, null)).toBe(`rtmp://node:1935/live/out%2B${id}`);
  });
});
