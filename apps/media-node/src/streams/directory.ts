import { type AssignedInput, CONFIG_PARTS, type ConfigPart, type PreviousAccessToken } from '@streamcloud/contract';

/**
 * A stream as the control plane assigns it to this node (`GET /node/inputs`): its name, outputs, tokens and the
 * versions of its configuration. The contract's wire name is `AssignedInput`; in the node it is a stream.
 */
export type AssignedStream = AssignedInput;
export type AssignedOutput = AssignedStream['outputs'][number];

/** Names as streamers and players send them: `in+<uuid>`, `in%2B<uuid>` (URL-encoded once or twice). */
export function normalizeName(raw: string): string {
  let name = raw.trim();
  for (let i = 0; i < 3 && /%[0-9A-Fa-f]{2}/.test(name); i++) {
    try {
      name = decodeURIComponent(name);
    } catch {
      break;
    }
  }
  return name;
}

/** A stream name with an access token appended as `?token=…` (RTMP keys and SRT stream ids). */
export function splitNameAndToken(raw: string): { name: string; token: string | null } {
  const decoded = normalizeName(raw);
  const at = decoded.indexOf('?');
  if (at < 0) return { name: decoded, token: null };
  const params = new URLSearchParams(decoded.slice(at + 1));
  return { name: decoded.slice(0, at), token: params.get('token') };
}

/** The streams assigned to this node as the control plane last answered, indexed by every name they answer to. */
export class StreamDirectory {
  private streams = new Map<string, AssignedStream>();
  private names = new Map<string, AssignedStream>();
  private outputs = new Map<string, { assigned: AssignedStream; output: AssignedOutput }>();

  /**
   * Takes the control plane's new answer; answers, for each stream, the parts of its configuration whose
   * version changed (streams without a change are left out): every part of a stream seen for the first
   * time (at the node's start, or created since the last read), so what waits for it is acted on.
   */
  replace(assignedStreams: AssignedStream[]): Map<AssignedStream, Set<ConfigPart>> {
    const changes = new Map<AssignedStream, Set<ConfigPart>>();
    for (const assigned of assignedStreams) {
      const before = this.streams.get(assigned.id);
      const parts = new Set(CONFIG_PARTS.filter((part) => before?.versions[part] !== assigned.versions[part]));
      if (parts.size > 0) changes.set(assigned, parts);
    }
    this.streams = new Map(assignedStreams.map((assigned) => [assigned.id, assigned]));
    this.names = new Map();
    this.outputs = new Map();
    for (const assigned of assignedStreams) {
      this.names.set(assigned.name.toLowerCase(), assigned);
      if (assigned.ingressName) this.names.set(assigned.ingressName.toLowerCase(), assigned);
      for (const output of assigned.outputs) this.outputs.set(output.name.toLowerCase(), { assigned, output });
    }
    return changes;
  }

  all(): AssignedStream[] {
    return [...this.streams.values()];
  }

  byId(id: string): AssignedStream | undefined {
    return this.streams.get(id);
  }

  byName(name: string): AssignedStream | undefined {
    return this.names.get(normalizeName(name).toLowerCase());
  }

  output(name: string): { assigned: AssignedStream; output: AssignedOutput } | undefined {
    return this.outputs.get(normalizeName(name).toLowerCase());
  }
}

/** Whether a push or play may go on: Public needs nothing, the private modes their token. */
export function tokenMatches(expected: string | null, given: string | null): boolean {
  if (!expected) return true;
  if (!given || given.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return diff === 0;
}

/**
 * Whether a push or play may go on with `given`: the current token, or the one a rotation replaced until its
 * window ends by this node's clock (checked at each admission, so it stops then without a new read of the
 * streams). `running`: the request belongs to a session admitted here before (an HLS player's next playlist or
 * fragment), which the window's end does not cut (docs/decisions.md, "Token rotation").
 */
export function tokenAccepted(
  holder: { accessToken: string | null; previousAccessToken: PreviousAccessToken },
  given: string | null,
  { now = Date.now(), running = false }: { now?: number; running?: boolean } = {},
): boolean {
  if (tokenMatches(holder.accessToken, given)) return true;
  const previous = holder.previousAccessToken;
  if (!previous || (!running && Date.parse(previous.expiresAt) <= now)) return false;
  return tokenMatches(previous.token, given);
}
