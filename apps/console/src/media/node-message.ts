/** A media node's refusal body (`{"message": "…"}`) as its sentence; null when it is not one. */
export function nodeMessage(body: string): string | null {
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    return typeof message === 'string' && message ? message : null;
  } catch {
    return null;
  }
}

/**
 * A request to a media node that got no answer: the network, or the console's CSP, which lets a page reach
 * the nodes registered when it was opened (a node added since is reached after a reload).
 */
export const NODE_UNREACHABLE =
  'the media node could not be reached (if it was added after this page was opened, reload the page)';
