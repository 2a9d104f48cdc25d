import { describe, expect, it } from 'vitest';
import { embedCode } from './stream-connection';

const id = '4b0c5a52-5a0e-4c54-9b8a-1f9d2f0c0a11';

describe('the embed code of an output', () => {
  it('frames its player page with autoplay, fullscreen and picture-in-picture allowed', () => {
    const code = embedCode({ id, format: 'WebRTC' }, 'https://streams.example.com');
    expect(code).toContain(`<iframe src="https://streams.example.com/play/${id}"`);
    expect(code).toContain('allow="autoplay; fullscreen; picture-in-picture"');
    expect(embedCode({ id, format: 'HLS' }, 'https://streams.example.com')).toMatch(/^<iframe .*><\/iframe>$/);
  });

  it('is none for an output a browser cannot play', () => {
    expect(embedCode({ id, format: 'RTMP' }, 'https://x')).toBeNull();
    expect(embedCode({ id, format: 'SRT' }, 'https://x')).toBeNull();
  });
});
