import { describe, expect, it } from 'vitest';
import { withoutMdnsCandidates } from './endpoint.js';

/** An offer's video section with two host candidates: an mDNS name (as Firefox sends them) and an address. */
const offer = (hosts: string[]) =>
  [
    'v=0',
    'm=video 9 UDP/TLS/RTP/SAVPF 120',
    ...hosts.map((host, i) => `a=candidate:${i} 1 UDP 2122187007 ${host} 5511${i} typ host`),
    'a=sendonly',
    'a=end-of-candidates',
    'a=mid:0',
  ].join('\r\n');

describe('withoutMdnsCandidates', () => {
  it('drops the mDNS candidates and end-of-candidates, so ICE waits for the browser to reach the node', () => {
    expect(withoutMdnsCandidates(offer(['d155d6c8-c56f-465f-9172-80626d0eb7c6.local', '192.0.2.7']))).toBe(
      [
        'v=0',
        'm=video 9 UDP/TLS/RTP/SAVPF 120',
        'a=candidate:1 1 UDP 2122187007 192.0.2.7 55111 typ host',
        'a=sendonly',
        'a=mid:0',
      ].join('\r\n'),
    );
  });

  it('leaves an offer without mDNS candidates as it is', () => {
    const sdp = offer(['192.0.2.7']);
    expect(withoutMdnsCandidates(sdp)).toBe(sdp);
  });
});
