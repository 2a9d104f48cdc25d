import { routeTable } from '@streamcloud/contract';
import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledSerializerCompiler, responseJsonSchema } from './response-serializer.js';

const serializerOf = (schema: z.ZodType) =>
  compiledSerializerCompiler()({ schema, method: 'GET', url: '/test', httpStatus: '200' }) as (data: unknown) => string;

/** What the zod serializer wrote before: the schema's encoding of the data, stringified. */
const zodAnswer = (schema: z.ZodType, data: unknown) => JSON.stringify(z.encode(schema, data as never));

/**
 * The same JSON value as zod's answer. Not the same bytes: fast-json-stringify writes an object's required
 * members before its optional ones, and member order carries no meaning in JSON.
 */
const expectSameAnswer = (schema: z.ZodType, data: unknown) =>
  expect(JSON.parse(serializerOf(schema)(data))).toStrictEqual(JSON.parse(zodAnswer(schema, data)));

const Track = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('H264'),
    width: z.number().int(),
    bitrate: z.number().int().min(100).nullable(),
    tune: z.enum(['none', 'zerolatency']).nullable(),
  }),
  z.object({ type: z.literal('AAC'), channels: z.number().int() }),
]);
const Sample = z.object({
  id: z.uuid(),
  caption: z.string(),
  email: z.string().nullable(),
  state: z.enum(['Relaying', 'Completed']).nullable(),
  format: z.literal('RTMP').nullable(),
  idx: z.number().int().min(0).nullable(),
  note: z.string().optional(),
  createdAt: z.iso.datetime({ offset: true }),
  geo: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  connection: z
    .union([
      z.object({ signallingUri: z.string() }),
      z.object({ hostname: z.string(), streamNode: z.string() }),
      z.object({ uri: z.string() }),
    ])
    .nullable(),
  tracks: z.array(Track),
  metadata: z.record(z.string(), z.string()),
  enabled: z.boolean(),
});

const base = {
  id: '6f1c2b1e-5d7a-4c8e-9a0b-1c2d3e4f5a6b',
  caption: 'Quotes " and \\ and \u2028 and emoji 🎥 and <script>',
  email: null,
  state: null,
  format: null,
  idx: null,
  createdAt: '2026-11-27T02:00:00.000Z',
  geo: null,
  connection: null,
  tracks: [],
  metadata: {},
  enabled: true,
};

describe('compiled response serializers', () => {
  it.each([
    ['nulls, an absent optional field, empty collections', base],
    [
      'every field set, union branches past the first, a record',
      {
        ...base,
        email: 'a@example.com',
        state: 'Completed',
        format: 'RTMP',
        idx: 0,
        note: 'n',
        geo: { latitude: 48.85, longitude: 2.35 },
        connection: { hostname: 'edge-1', streamNode: 'in+abc' },
        tracks: [
          { type: 'H264', width: 1280, bitrate: null, tune: null },
          { type: 'H264', width: 640, bitrate: 800, tune: 'zerolatency' },
          { type: 'AAC', channels: 2 },
        ],
        metadata: { region: 'eu', 'odd key "x"': 'y' },
      },
    ],
    [
      'keys the schema does not declare, at every level',
      {
        ...base,
        secret: 'not in the answer',
        geo: { latitude: 1, longitude: 2, altitude: 3 },
        connection: { uri: 'rtmp://x', internal: true },
        tracks: [{ type: 'AAC', channels: 1, extra: 'x' }],
      },
    ],
  ])('write the value zod wrote: %s', (_, data) => {
    expectSameAnswer(Sample, data);
  });

  it('keep zod for a schema JSON Schema cannot state (a Date)', () => {
    const Dated = z.object({ at: z.date() });
    const data = { at: new Date('2026-11-27T02:00:00Z'), extra: 1 };
    expect(responseJsonSchema(Dated)).toBeNull();
    expect(serializerOf(Dated)(data)).toBe(zodAnswer(Dated, data));
  });

  it('compile every response schema of the contract', () => {
    const failures: string[] = [];
    for (const [group, routes] of Object.entries(routeTable)) {
      for (const [name, route] of Object.entries(routes as Record<string, { response: z.ZodType | null }>)) {
        const json = route.response && responseJsonSchema(route.response);
        if (json) {
          try {
            fastJsonStringify(json as unknown as Schema);
          } catch (error) {
            failures.push(`${group}.${name}: ${(error as Error).message}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
