import { DEFAULT_ADJUSTABLE_TRACKS, StreamInputCreate, StreamInputUpdate } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { NEW_STREAM_VALUES, sendsAccessToken, showsAccessToken, toCreateBody, toUpdateBody } from './stream-form';

const GEO = { latitude: 52.5, longitude: 13.4 };

describe('stream modal values', () => {
  it('start with WebRTC, adjustable transcoding and Public', () => {
    expect(NEW_STREAM_VALUES).toMatchObject({ format: 'WebRTC', output: 'AdjustableTranscode', access: 'Public' });
  });

  it('show the access token for Private and PrivateIngoing, and send it only for Private', () => {
    expect([showsAccessToken('Public'), showsAccessToken('PrivateIngoing'), showsAccessToken('Private')]).toEqual([
      false,
      true,
      true,
    ]);
    expect([sendsAccessToken('Public'), sendsAccessToken('PrivateIngoing'), sendsAccessToken('Private')]).toEqual([
      false,
      false,
      true,
    ]);
  });
});

describe('creation body', () => {
  it('holds the defaults and the adjustable ladder, and nothing left blank', () => {
    const body = toCreateBody(NEW_STREAM_VALUES, null);
    expect(body).toEqual({
      format: 'WebRTC',
      access: 'Public',
      gslb: false,
      output: { version: 2, passthrough: false, tracks: DEFAULT_ADJUSTABLE_TRACKS },
    });
    expect(StreamInputCreate.safeParse(body).success).toBe(true);
  });

  it('sends passthrough with no tracks', () => {
    expect(toCreateBody({ ...NEW_STREAM_VALUES, output: 'Passthrough' }, null).output).toEqual({
      version: 2,
      passthrough: true,
      tracks: [],
    });
  });

  it('sends the token only for Private, and only when one is typed', () => {
    const values = { ...NEW_STREAM_VALUES, accessToken: ' secret-1 ' };
    expect(toCreateBody({ ...values, access: 'Private' }, null).accessToken).toBe('secret-1');
    expect(toCreateBody({ ...values, access: 'PrivateIngoing' }, null)).not.toHaveProperty('accessToken');
    expect(toCreateBody({ ...values, access: 'Public' }, null)).not.toHaveProperty('accessToken');
    expect(toCreateBody({ ...values, access: 'Private', accessToken: '  ' }, null)).not.toHaveProperty('accessToken');
  });

  it('trims caption and callback URI, and sends the streamer with its looked-up location', () => {
    const body = toCreateBody(
      {
        ...NEW_STREAM_VALUES,
        caption: ' Show ',
        callbackUri: ' https://example.com/hook ',
        streamerIp: ' 8.8.8.8 ',
        gslb: true,
      },
      GEO,
      '00000000-0000-4000-8000-000000000002',
    );
    expect(body).toMatchObject({
      caption: 'Show',
      callbackUri: 'https://example.com/hook',
      gslb: true,
      streamer: { ipAddress: '8.8.8.8', geoLocation: GEO },
      ownerId: '00000000-0000-4000-8000-000000000002',
    });
  });

  it('survives values of disabled inputs that come back undefined', () => {
    const values = { ...NEW_STREAM_VALUES, access: 'PrivateIngoing' as const, accessToken: undefined as never };
    expect(toCreateBody(values, null).access).toBe('PrivateIngoing');
  });
});

describe('update body', () => {
  it('sends only the streamer: creation-time fields and an empty callback URI are never sent', () => {
    const values = { ...NEW_STREAM_VALUES, caption: 'x', callbackUri: '', streamerIp: '1.2.3.4' };
    expect(toUpdateBody(values, null)).toEqual({ streamer: { ipAddress: '1.2.3.4' } });
    expect(toUpdateBody(values, GEO)).toEqual({ streamer: { ipAddress: '1.2.3.4', geoLocation: GEO } });
    expect(StreamInputUpdate.safeParse(toUpdateBody(values, GEO)).success).toBe(true);
  });

  it('clears the streamer address when it is emptied', () => {
    expect(toUpdateBody({ ...NEW_STREAM_VALUES, streamerIp: ' ' }, GEO)).toEqual({ streamer: { ipAddress: '' } });
  });
});
