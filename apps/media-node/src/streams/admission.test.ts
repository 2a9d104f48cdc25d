import { describe, expect, it } from 'vitest';
import { Admission } from './admission.js';
import { type AssignedStream, StreamDirectory } from './directory.js';
import type { LiveStream } from './types.js';

const stream = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'in+a1',
  ingressName: null,
  format: 'RTMP',
  access: 'Private',
  accessToken: 'secret',
  previousAccessToken: null,
  origin: null,
  outputs: [],
  versions: {},
} as unknown as AssignedStream;

function admission(live: LiveStream | undefined = undefined) {
  const directory = new StreamDirectory();
  directory.replace([stream]);
  return new Admission(directory, (streamId) => (streamId === stream.id ? live : undefined));
}

// The front ends answer by it (RTSP 403 or 404, WHIP 401, 409 or 404) and the stream's status messages say why.
describe('a refused push names its stream when the node serves it', () => {
  it('already pushed', async () => {
    const pushed = { assigned: stream, fallback: null } as unknown as LiveStream;
    const refused = await admission(pushed).push('RTMP', 'in+a1', 'secret', null);
    expect(refused).toMatchObject({ ok: false, assigned: stream, reason: expect.stringContaining('already') });
  });

  it('a wrong token, another protocol, emergency cleanup', async () => {
    expect(await admission().push('RTMP', 'in+a1', 'wrong', null)).toMatchObject({ ok: false, assigned: stream });
    expect(await admission().push('SRT', 'in+a1', 'secret', null)).toMatchObject({ ok: false, assigned: stream });
    const emergency = admission();
    emergency.emergency = true;
    expect(await emergency.push('RTMP', 'in+a1', 'secret', null)).toMatchObject({ ok: false, assigned: stream });
  });

  it('but not a name it does not serve, and admits the right push', async () => {
    const unknown = await admission().push('RTMP', 'in+other', 'secret', null);
    expect(unknown.ok).toBe(false);
    expect(unknown).not.toHaveProperty('assigned');
    expect(await admission().push('RTMP', 'in+a1', 'secret', null)).toEqual({ ok: true, assigned: stream });
  });
});
