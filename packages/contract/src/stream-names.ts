/**
 * Stream names: the last path segment of a uri, or the `streamid` query parameter for SRT.
 * A name starting with `in` followed by `+` or whitespace is adjustable transcoding; any other
 * name is passthrough. Playback names are `in`, `out` or `as`, a plus sign, then a UUID.
 */
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const PLAYBACK_NAME = new RegExp(`^(in|out|as)\\+(${UUID})$`);
const ADJUSTABLE_NAME = /^in[+\s]/;

export type OutputMode = 'AdjustableTranscode' | 'Passthrough';
export type NamePrefix = 'in' | 'out' | 'as';

/** The prefix of a passthrough input: not `in` + `+`, so the parser reads it as passthrough. */
export const PASSTHROUGH_PREFIX = 'pt';

export function streamNameFromUri(uri: string): string | null {
  try {
    const url = new URL(uri);
    const streamId = url.searchParams.get('streamid');
    if (url.protocol === 'srt:') return streamId;
    const segments = url.pathname.split('/').filter(Boolean);
    const last = segments[segments.length - 1];
    return last ? decodeURIComponent(last) : null;
  } catch {
    return null;
  }
}

export function outputModeOfName(name: string): OutputMode {
  return ADJUSTABLE_NAME.test(name) ? 'AdjustableTranscode' : 'Passthrough';
}

export function parsePlaybackName(name: string): { prefix: NamePrefix; id: string } | null {
  const match = PLAYBACK_NAME.exec(name);
  return match ? { prefix: match[1] as NamePrefix, id: (match[2] as string).toLowerCase() } : null;
}

export function makeStreamName(prefix: NamePrefix | typeof PASSTHROUGH_PREFIX, id: string): string {
  return `${prefix}+${id}`;
}

/**
 * A push or playback URI with its access token where the media node reads it: in SRT's stream id
 * (`streamid=<name>?token=<token>`, URL-encoded), else a `token` query parameter (RTMP, HLS, WHIP/WHEP).
 */
export function uriWithToken(uri: string, token: string | null): string {
  if (!token) return uri;
  if (uri.startsWith('srt:')) {
    const streamId = streamNameFromUri(uri) ?? '';
    return uri.replace(
      /([?&]streamid=)[^&#]*/,
      (_, key: string) => `${key}${encodeURIComponent(`${streamId}?token=${token}`)}`,
    );
  }
  return `${uri}${uri.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}
