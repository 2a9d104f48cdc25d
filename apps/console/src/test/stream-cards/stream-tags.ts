import { type Handler, jsonResponse } from '@streamcloud/api-client/testing';

/** How the stream dashboard's tests answer the stream tags feature's card (its read): a stream without tags. */
export const streamCardHandlers = (streamId: string): Record<string, Handler> => ({
  [`GET /api/v1/inputs/${streamId}/tags`]: () => jsonResponse({ streamId, tags: [] }),
});
