import {
  type InputConnection,
  PRIVATE_ACCESS_MODES,
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
export function outputPlaybackUrl(output: Pick<StreamOutput, 'connection' | 'viewer'>): string | null {
  const endpoint = outputEndpoint(output);
  return endpoint && uriWithToken(endpoint, output.viewer.accessToken);
}
