/** The message a host page sends an embedded player to give it a viewer or playback token. */
export const TOKEN_MESSAGE = 'streamcloud:token';

/** The token of the page's address (`/play/<id>?token=…`); null without one. */
export function tokenFromUrl(search: string): string | null {
  return new URLSearchParams(search).get('token') || null;
}

/**
 * Listens for `{ type: 'streamcloud:token', token }` from the window that embeds the player, and only from
 * it: any other window (another frame, a popup) could otherwise swap the viewer's credential. Answers what
 * stops listening.
 */
export function listenForToken(own: Window, onToken: (token: string) => void): () => void {
  const listener = (event: MessageEvent) => {
    if (own.parent === own || event.source !== own.parent) return;
    const data = event.data as { type?: unknown; token?: unknown } | null;
    if (data?.type === TOKEN_MESSAGE && typeof data.token === 'string' && data.token) onToken(data.token);
  };
  own.addEventListener('message', listener);
  return () => own.removeEventListener('message', listener);
}
