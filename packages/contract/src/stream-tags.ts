import { z } from 'zod';
import { Id, PageQuery } from './common.js';
import { defineRoute } from './routes.js';
import { InputFormat } from './stream-list.js';

/**
 * Stream tags: labels a customer puts on its streams ("studio-a", "sports") to find them again. A tag is
 * 1–32 characters of a-z, 0-9 and -; a stream has at most STREAM_TAGS_MAX, each once.
 */
export const STREAM_TAG_MAX_LENGTH = 32;
export const STREAM_TAGS_MAX = 20;
export const STREAM_TAG_RULE = `Tag must be 1 to ${STREAM_TAG_MAX_LENGTH} characters of lowercase a-z, 0-9 and -`;

export const StreamTagName = z
  .string({ error: STREAM_TAG_RULE })
  .min(1, STREAM_TAG_RULE)
  .max(STREAM_TAG_MAX_LENGTH, STREAM_TAG_RULE)
  .regex(/^[a-z0-9-]+$/, STREAM_TAG_RULE);

/** A stream's tags, by name. */
export const StreamTags = z.object({ streamId: Id, tags: z.array(StreamTagName) });
export type StreamTags = z.infer<typeof StreamTags>;

export const StreamTagAdd = z.strictObject({ tag: StreamTagName });
export type StreamTagAdd = z.infer<typeof StreamTagAdd>;

/** A stream that has the tag asked for (the streams list filtered by a tag). */
export const TaggedStream = z.object({
  id: Id,
  ownerId: Id,
  name: z.string(),
  caption: z.string().nullable(),
  format: InputFormat,
});
export type TaggedStream = z.infer<typeof TaggedStream>;

/** What the API answers a duplicate or a tag past the limit (409). */
export const STREAM_TAG_MESSAGES = {
  duplicate: 'The stream already has this tag',
  limit: `A stream has at most ${STREAM_TAGS_MAX} tags: remove one first`,
} as const;

export const streamTagRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/inputs/:id/tags',
    summary: "A stream's tags, by name",
    tag: 'stream-tags',
    auth: 'user',
    params: z.strictObject({ id: Id }),
    response: StreamTags,
    errors: [404],
  }),
  add: defineRoute({
    method: 'POST',
    path: '/inputs/:id/tags',
    summary: `Tag a stream (at most ${STREAM_TAGS_MAX} tags; a tag it has already is 409); answers its tags`,
    tag: 'stream-tags',
    auth: 'user',
    params: z.strictObject({ id: Id }),
    body: StreamTagAdd,
    response: StreamTags,
    status: 201,
    errors: [404, 409],
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/inputs/:id/tags/:tag',
    summary: 'Remove a tag from a stream (a tag it does not have is 404)',
    tag: 'stream-tags',
    auth: 'user',
    params: z.strictObject({ id: Id, tag: StreamTagName }),
    response: null,
    errors: [404],
  }),
  streams: defineRoute({
    method: 'GET',
    path: '/tags/:tag/inputs',
    summary: "The streams with a tag, by name, paged: the caller's (ADMIN: all, or one account with ?account=)",
    tag: 'stream-tags',
    auth: 'user',
    params: z.strictObject({ tag: StreamTagName }),
    query: PageQuery.extend({ account: Id.optional() }),
    response: z.array(TaggedStream),
    errors: [404],
  }),
};
