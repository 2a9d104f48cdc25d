import { z } from 'zod';
import { Id, IdParams, Timestamp } from './common.js';
import { DVR_WINDOW_MAX_MINUTES, HlsLatency, OutputAccess, OutputFormat } from './outputs.js';
import { defineRoute } from './routes.js';
import { StatusMessage } from './stream-fields.js';
import { AccessMode, InputFormat, OutputModeEnum, StreamStatus } from './stream-list.js';
import { StreamFormat, TrackInfo } from './streams.js';

// Node-facing: what a media node reports of the streams it serves (`StreamStateReport`, with the HLS ladder it
// serves) and what it is told of them (`AssignedInput`: outputs, tokens, origin or source, signing keys).

/**
 * One variant of a transcoded stream's HLS ladder as its ingest node serves it (what the master playlist
 * lists): reported by that node once the rendition has a fragment, and given to the stream's edges, which
 * write the same master and pull each variant from the ingest node on demand (docs/decisions.md).
 */
export const LadderRendition = z.strictObject({
  /** The variant's path segment (`<key>/index.m3u8`) and, on the ingest node, its nginx name `<input id>_<key>`. */
  key: z.string().regex(/^[ra]\d{1,2}$/, 'key must be r<n> or a<n>'),
  /** The master playlist's BANDWIDTH (b/s). */
  bandwidth: z.number().int().min(0, 'bandwidth must be at least 0'),
  width: z.number().int().min(1).max(16_384).nullable(),
  height: z.number().int().min(1).max(16_384).nullable(),
  /** The master playlist's CODECS (RFC 6381), null when unknown. */
  codecs: z.string().max(200, 'codecs must be at most 200 characters').nullable(),
});
export type LadderRendition = z.infer<typeof LadderRendition>;

/** What a capped token's sessions are counted by, as nodes share it: a SHA-256 digest, base64url, 22 characters. */
export const TokenSessionId = z.string().regex(/^[\w-]{22}$/, 'tokenId must be 22 base64url characters');
/** Sessions of capped stream-wide tokens on a stream's other nodes, told to each node (bounded). */
export const TOKEN_SESSIONS_MAX = 10_000;

/** Node-facing: what a node reports about one input it serves (any field may be left out). */
export const StreamStateReport = z.strictObject({
  id: z.string().min(1, 'Report id is required').max(128, 'Report id must be at most 128 characters'),
  at: Timestamp.optional(),
  kind: z.literal('stream-state'),
  streamId: Id,
  status: z.enum(['Idle', 'Ingestion', 'Error', 'Fallback']).optional(),
  message: z.strictObject({ level: StatusMessage.shape.level, text: z.string().min(1).max(1000) }).optional(),
  /** With status Ingestion: the push that started (its protocol and the publisher's address), for webhooks. */
  push: z
    .strictObject({
      protocol: StreamFormat,
      remoteAddress: z.string().max(64, 'remoteAddress must be at most 64 characters').nullable(),
    })
    .optional(),
  tracks: z
    .strictObject({
      incoming: z.array(TrackInfo.strict()).max(32).optional(),
      outgoing: z.array(TrackInfo.strict()).max(32).optional(),
    })
    .optional(),
  /** The HLS ladder its viewers get now (its transcoder's renditions, top first); null: none (one media playlist). */
  renditions: z.array(LadderRendition).max(16).nullable().optional(),
  outputs: z
    .array(
      z.strictObject({
        outputId: Id,
        sessions: z
          .array(
            z.strictObject({
              id: z.string().min(1).max(128),
              ipAddress: z.string().max(64).nullable(),
              startedAt: Timestamp,
              bytes: z.number().min(0),
              /**
               * A session of a stream-wide playback token that caps its sessions (`maxSessions`): a digest of what the
               * token's sessions are counted by (its jti, or the token), so the stream's other nodes count it too.
               */
              tokenId: TokenSessionId.optional(),
            }),
          )
          .max(10_000),
        /** Preview sessions (the console's player, admitted with a preview credential): counted apart from viewers. */
        previews: z.number().int().min(0, 'previews must be at least 0').max(10_000).optional(),
      }),
    )
    .max(1000)
    .optional(),
});
export type StreamStateReport = z.infer<typeof StreamStateReport>;

/**
 * What a node runs for an input, each part with its own version: a text that changes whenever that part's
 * configuration changes (a digest of it), so a node polling `GET /node/inputs` re-reads only what changed.
 * `config` is the transcode configuration (`/node/inputs/{id}/output`), `snapshots` the snapshot settings,
 * `recordings`, `relays` and `fallbacks` the input's jobs of each kind, `outputs` the outputs listed here.
 */
export const CONFIG_PARTS = ['config', 'snapshots', 'recordings', 'relays', 'fallbacks', 'outputs'] as const;
export type ConfigPart = (typeof CONFIG_PARTS)[number];
export const ConfigVersions = z.object(
  Object.fromEntries(CONFIG_PARTS.map((part) => [part, z.string()])) as Record<ConfigPart, z.ZodString>,
);
export type ConfigVersions = z.infer<typeof ConfigVersions>;
/**
 * The version of a part the stream has nothing of (no snapshot settings, recordings, relays or fallbacks: the digest
 * of no rows, md5 of ''): a node knows that part's configuration is empty without reading it, which keeps a wave of
 * new streams going live from costing one read per stream and part (issue 39, admission at scale).
 */
export const NOTHING_CONFIGURED = 'd41d8cd98f00b204e9800998ecf8427e';

/** A node a stream is pulled from over RTMP (an edge's origin, an Internode stream's source), with the pull's credential. */
const RtmpPullFrom = z.object({
  nodeId: Id,
  nodeName: z.string(),
  hostname: z.string(),
  rtmpPort: z.number().int(),
  credential: z.string(),
});

/**
 * The token a rotation replaced (null: none, or an overlap of 0): taken from new pushes and players until
 * `expiresAt` by the node's clock, and after it only for an HLS session admitted before (docs/decisions.md,
 * "Token rotation").
 */
export const PreviousAccessToken = z.object({ token: z.string(), expiresAt: Timestamp }).nullable();
export type PreviousAccessToken = z.infer<typeof PreviousAccessToken>;

/**
 * What a node verifies an account's signed playback tokens with (issue 34): its keys (revoked ones marked, so
 * their tokens are refused as revoked) and revoked token ids, at a version (AssignedInput.signing names it).
 * HS256 secrets travel here only, on the node-token channel, and are never logged.
 */
export const NodeSigning = z.object({
  version: z.string(),
  keys: z.array(
    z.object({
      kid: z.string(),
      algorithm: z.enum(['ES256', 'Ed25519', 'HS256']),
      /** ES256/Ed25519: the public JWK. */
      publicJwk: z.record(z.string(), z.unknown()).nullable(),
      /** HS256: the secret, base64url. */
      secret: z.string().nullable(),
      revoked: z.boolean(),
    }),
  ),
  revokedTokenIds: z.array(z.string()),
});
export type NodeSigning = z.infer<typeof NodeSigning>;

/** Node-facing: an input as the node that serves it needs to know it (to admit or refuse a push). */
export const AssignedInput = z.object({
  id: Id,
  name: z.string(),
  format: InputFormat,
  status: StreamStatus,
  access: AccessMode,
  accessToken: z.string().nullable(),
  previousAccessToken: PreviousAccessToken,
  outputMode: OutputModeEnum,
  outputs: z.array(
    z.object({
      id: Id,
      name: z.string(),
      format: OutputFormat,
      access: OutputAccess,
      /** An HLS output's packaging (absent: Standard, as before outputs had one). */
      hlsLatency: HlsLatency.optional(),
      /** A Low latency output's rewind window, minutes (absent: off). */
      dvrWindowMinutes: z.number().int().min(0).max(DVR_WINDOW_MAX_MINUTES).optional(),
      accessToken: z.string().nullable(),
      previousAccessToken: PreviousAccessToken,
      /** When the output's sessions were last cleared: the node disconnects its viewers when this changes. */
      sessionsClearedAt: Timestamp.nullable(),
    }),
  ),
  ingressName: z.string().nullable(),
  /** The key preview credentials of this stream are signed with (HMAC-SHA256, base64url); see PreviewCredential. */
  previewKey: z.string(),
  /** The key edge pull credentials of this stream are signed with (the ingest node checks edges' pulls with it); null on an edge. */
  edgeKey: z.string().nullable(),
  /**
   * Null: the calling node ingests this stream. Set: the calling node is an edge that serves only the
   * outputs listed (those assigned to it) and pulls the stream from its origin (ingest) node over RTMP with
   * `credential` (`edge-credential.ts`, short-lived, renewed with every read); it never takes a push for it.
   */
  origin: RtmpPullFrom.extend({
    /**
     * The origin's HLS ladder while it transcodes the stream (null: none): the edge writes the same master
     * playlist and pulls each variant's rendition (`&rendition=<key>`) while its HLS viewers ask for it.
     */
    renditions: z.array(LadderRendition).nullable(),
  }).nullable(),
  /**
   * An Internode stream the calling node ingests: the stream it pulls (over RTMP from that stream's node, with
   * an edge credential of that stream bound to the calling node), and whether the source is live now (the node
   * pulls while it is). Null for every other stream, and while the source has no node.
   */
  source: RtmpPullFrom.extend({ inputId: Id, name: z.string(), live: z.boolean() }).nullable(),
  /**
   * Whose playback signing keys verify the tokens of this stream's Signed outputs (issue 34), and their version:
   * the node reads an account's keys and revoked token ids (GET /node/playback-signing/:id) once per version,
   * not with every read of its inputs (an account may hold thousands of revoked ids and many streams). Null when
   * no output listed here is Signed.
   */
  signing: z.object({ accountId: Id, version: z.string() }).nullable(),
  /**
   * The sessions of this stream's Signed outputs on other nodes that play a stream-wide token capping its sessions
   * (`maxSessions`), by that token (`tokenId`, as nodes report it): counted with the node's own, so a token's cap
   * holds across the nodes serving the stream's outputs. Absent when there are none.
   */
  tokenSessions: z
    .array(z.object({ tokenId: TokenSessionId, sessionId: z.string(), startedAt: Timestamp }))
    .max(TOKEN_SESSIONS_MAX)
    .optional(),
  versions: ConfigVersions,
});
export type AssignedInput = z.infer<typeof AssignedInput>;

export const nodeStreamRoutes = {
  inputs: defineRoute({
    method: 'GET',
    path: '/node/inputs',
    summary: 'The inputs assigned to the calling node, with their outputs and access tokens',
    tag: 'node-facing',
    auth: 'node',
    response: z.array(AssignedInput),
  }),
  claimIngress: defineRoute({
    method: 'POST',
    path: '/node/ingress/claim',
    summary:
      "A push to a stream's GSLB name (as+<uuid>) reached the calling node: a stream that is not live moves to it " +
      '(403 for a node that may not take it, 404 for an unknown name, 409 while it is live)',
    tag: 'node-facing',
    auth: 'node',
    body: z.strictObject({
      name: z.string().min(1, 'Name is required').max(200, 'Name must be at most 200 characters'),
    }),
    response: AssignedInput,
    errors: [403, 404, 409],
  }),
  playbackSigning: defineRoute({
    method: 'GET',
    path: '/node/playback-signing/:id',
    summary:
      "An account's playback signing keys and revoked token ids, as the calling node verifies its Signed outputs' " +
      'tokens with them (404 unless the node serves a stream of the account)',
    tag: 'node-facing',
    auth: 'node',
    params: IdParams,
    response: NodeSigning,
    // HS256 secrets are in the answer.
    revealsSecret: true,
    errors: [404],
  }),
};
