/** A media node's refusal body (`{"message": "…"}`) as its sentence; null when it is not one. */
export function nodeMessage(body: string): string | null {
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    return typeof message === 'string' && message ? message : null;
  } catch {
    return null;
  }
}
