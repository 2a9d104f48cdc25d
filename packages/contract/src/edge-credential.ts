import { credentialScheme } from './signed-credential.js';

/**
 * Edge pull credentials (`ep1.<edge node id>.<expiry>.<signature>`): the control plane gives one to each edge
 * node serving outputs of a stream ingested elsewhere (with every `GET /node/inputs`, valid 10 minutes); the
 * edge pulls the stream from the origin node over RTMP with it (`?edge=`), and the origin checks it with the
 * stream's edge key (sent with the stream's assignment). Never a user's token. Server-side only (node:crypto).
 */
const edge = credentialScheme('ep1', 'edge-pull', 1);

export const EDGE_CREDENTIAL_TTL_SECONDS = 600;

export const edgeKeyOf = (signingKey: string, streamId: string): string => edge.keyOf(signingKey, streamId);

/** A credential for node `edgeNodeId` to pull `streamId`, valid until `expiresAt`. */
export const signEdgeCredential = (key: string, streamId: string, edgeNodeId: string, expiresAt: Date): string =>
  edge.sign(key, streamId, [edgeNodeId], expiresAt);

/** The pulling node's id when `token` is a valid, unexpired edge credential for `streamId`; else null. */
export function verifyEdgeCredential(key: string, streamId: string, token: string, now = new Date()): string | null {
  return edge.verify(key, streamId, token, now)?.[0] ?? null;
}
