import { type AssignedInput, CONFIG_PARTS, type ConfigPart, type PreviousAccessToken } from '@streamcloud/contract';

export type AssignedOutput = AssignedInput['outputs'][number];

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

/** The inputs assigned to this node as the control plane last answered, indexed by every name they answer to. */
export class InputDirectory {
  private inputs = new Map<string, AssignedInput>();
  private byName = new Map<string, AssignedInput>();
  private outputs = new Map<string, { input: AssignedInput; output: AssignedOutput }>();

  /**
   * Takes the control plane's new answer; answers, for each input, the parts of its configuration whose
   * version changed (inputs without a change are left out): every part of an input seen for the first
   * time (at the node's start, or created since the last read), so what waits for it is acted on.
   */
  replace(inputs: AssignedInput[]): Map<AssignedInput, Set<ConfigPart>> {
    const changes = new Map<AssignedInput, Set<ConfigPart>>();
    for (const input of inputs) {
      const before = this.inputs.get(input.id);
      const parts = new Set(CONFIG_PARTS.filter((part) => before?.versions[part] !== input.versions[part]));
      if (parts.size > 0) changes.set(input, parts);
    }
    this.inputs = new Map(inputs.map((input) => [input.id, input]));
    this.byName = new Map();
    this.outputs = new Map();
    for (const input of inputs) {
      this.byName.set(input.name.toLowerCase(), input);
      if (input.ingressName) this.byName.set(input.ingressName.toLowerCase(), input);
      for (const output of input.outputs) this.outputs.set(output.name.toLowerCase(), { input, output });
    }
    return changes;
  }

  all(): AssignedInput[] {
    return [...this.inputs.values()];
  }

  byId(id: string): AssignedInput | undefined {
    return this.inputs.get(id);
  }

  input(name: string): AssignedInput | undefined {
    return this.byName.get(normalizeName(name).toLowerCase());
  }

  output(name: string): { input: AssignedInput; output: AssignedOutput } | undefined {
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
 * inputs). `running`: the request belongs to a session admitted here before (an HLS player's next playlist or
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
