import {
  type InputConnection,
  PRIVATE_ACCESS_MODES,
  playPagePath,
  type StreamInput,
  type StreamOutput,
  streamNameFromUri,
  uriWithToken,
} from '@streamcloud/contract';

export function isPrivateAccess(access: string): boolean {
  return (PRIVATE_ACCESS_MODES as readonly string[]).includes(access);
}

/** Where to push: uri, WebRTC's signallingUri, or an Internode host and stream node. */
export function inputEndpoint(connection: InputConnection | null): string | null {
  if (!connection) return null;
  if ('uri' in connection) return connection.uri;
  if ('signallingUri' in connection) return connection.signallingUri;
  return `${connection.hostname} / ${connection.streamNode}`;
}

/**
 * What an Internode stream's connection is (docs/decisions.md, "Internode streams"): nothing is pushed to it,
 * its node pulls its source stream from the node named in the connection. Null for other formats.
 */
export function internodeNote(stream: Pick<StreamInput, 'format' | 'source' | 'servingNode'>): string | null {
  if (stream.format !== 'Internode') return null;
  if (!stream.source) return 'Its source stream was deleted: this Internode stream no longer goes live.';
  const puller = stream.servingNode ? `Node ${stream.servingNode.name}` : 'Its node, once it has one,';
  const from = stream.source.streamNode ? `node ${stream.source.streamNode}` : 'its node, once it has one';
  return `Internode: nothing is pushed to this stream. ${puller} pulls stream ${stream.source.name} from ${from} while that stream is live.`;
}

/** The stream name: the last path segment of the uri, or SRT's streamid; the server's name otherwise. */
export function streamNameOf(stream: Pick<StreamInput, 'connection' | 'name'>): string {
  const { connection } = stream;
  const uri =
    connection &&
    ('uri' in connection ? connection.uri : 'signallingUri' in connection ? connection.signallingUri : null);
  return (uri && streamNameFromUri(uri)) || stream.name;
}

export function outputEndpoint(output: Pick<StreamOutput, 'connection'>): string | null {
  return output.connection?.uri ?? output.connection?.signallingUri ?? null;
}

/** The viewer's URL as a player uses it: a Private stream's output carries its playback token the way the node reads it. */
export function outputPlaybackUrl(output: Pick<StreamOutput, 'connection' | 'viewer' | 'access'>): string | null {
  const endpoint = outputEndpoint(output);
  // A Signed output refuses its static token: its viewers come with their own signed tokens.
  return endpoint && uriWithToken(endpoint, output.access === 'Private' ? output.viewer.accessToken : null);
}

/** Viewer formats the embeddable player plays (WHEP and HLS in a browser). */
const EMBEDDABLE_FORMATS: readonly StreamOutput['format'][] = ['WebRTC', 'HLS'];

/**
 * The HTML that embeds an output's player page (`/play/{id}`, served beside the console at `origin`) in
 * another site; null for an output a browser cannot play. A Private or Signed output's token is left out:
 * the host page adds `?token=` or posts it (README, "Embed a player").
 */
export function embedCode(output: Pick<StreamOutput, 'id' | 'format'>, origin: string): string | null {
  if (!EMBEDDABLE_FORMATS.includes(output.format)) return null;
  const src = `${origin}${playPagePath(output.id)}`;
  return `<iframe src="${src}" width="640" height="360" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="Live stream"></iframe>`;
}
