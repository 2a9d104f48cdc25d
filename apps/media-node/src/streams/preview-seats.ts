/** Sessions one preview credential may hold at once: the console's player and its reconnect. */
export const PREVIEW_SESSIONS_PER_CREDENTIAL = 2;

/**
 * The seats of preview sessions (docs/decisions.md, "Preview credentials are bounded"): a preview credential
 * (never billed) serves at most PREVIEW_SESSIONS_PER_CREDENTIAL sessions at once, across HLS and WHEP. A
 * session takes its seat when it starts (an HLS session id's first request, a WHEP offer) and gives it back when
 * it ends; an entry lives only as long as its session, so the maps are bounded by the sessions of the node.
 */
export class PreviewSeats {
  private readonly byCredential = new Map<string, Set<string>>();
  private readonly credentialOf = new Map<string, string>();
  /** Sessions refused because their credential had no seat left, since the node started. */
  refused = 0;

  /** Whether session `sessionId` may play as a preview with `credential` (it takes a seat if so). */
  take(credential: string, sessionId: string): boolean {
    if (this.credentialOf.get(sessionId) === credential) return true;
    this.release(sessionId);
    const seats = this.byCredential.get(credential) ?? new Set<string>();
    if (seats.size >= PREVIEW_SESSIONS_PER_CREDENTIAL) {
      this.refused++;
      return false;
    }
    seats.add(sessionId);
    this.byCredential.set(credential, seats);
    this.credentialOf.set(sessionId, credential);
    return true;
  }

  /** The session ended (or never started): its seat is free. Idempotent. */
  release(sessionId: string): void {
    const credential = this.credentialOf.get(sessionId);
    if (credential === undefined) return;
    this.credentialOf.delete(sessionId);
    const seats = this.byCredential.get(credential);
    seats?.delete(sessionId);
    if (seats?.size === 0) this.byCredential.delete(credential);
  }

  /** Seats taken now. */
  get taken(): number {
    return this.credentialOf.size;
  }
}

/** The refusal of a preview session without a seat (429: it may come back once one of its sessions ended). */
export const NO_PREVIEW_SEAT = `This preview credential already plays ${PREVIEW_SESSIONS_PER_CREDENTIAL} sessions: close one, or wait for it to end`;
