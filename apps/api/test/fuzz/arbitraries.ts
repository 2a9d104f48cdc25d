import fc from 'fast-check';
import { z } from 'zod';

// Generators of request parts for the fuzzing suite (fuzz.test.ts): values valid per a route's zod schema
// (through its JSON Schema, which zod derives for OpenAPI too), and hostile mutations of them.

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  default?: unknown;
};

/** Generated strings stay short unless the schema asks for more: the boundaries come from the mutations. */
const LONGEST_GENERATED = 40;
/** Recursive schemas ($ref) unfold this deep, then stop at their smallest form. */
const DEPTH = 4;

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid({ version: 4 }),
  email: fc.emailAddress(),
  uri: fc.webUrl(),
  url: fc.webUrl(),
  'date-time': fc
    .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true })
    .map((date) => date.toISOString()),
  date: fc
    .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10)),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
  hostname: fc.domain(),
};

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? LONGEST_GENERATED, min + LONGEST_GENERATED));
  const fitting = (text: string) => text.length >= min && text.length <= (schema.maxLength ?? Number.MAX_VALUE);
  const format = schema.format ? FORMATS[schema.format] : undefined;
  if (format) return format;
  if (schema.pattern) {
    try {
      return fc.oneof(
        fc.stringMatching(new RegExp(schema.pattern)).filter(fitting),
        fc.string({ minLength: min, maxLength: max }),
      );
    } catch {
      // A pattern fast-check cannot read: plain strings of the right length.
    }
  }
  return fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }).filter(fitting);
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
  if (integer) {
    const low = Math.max(min ?? -1_000_000, Number.MIN_SAFE_INTEGER);
    const high = Math.min(max ?? 1_000_000, Number.MAX_SAFE_INTEGER);
    const step = schema.multipleOf && Number.isInteger(schema.multipleOf) ? schema.multipleOf : 1;
    return fc
      .integer({ min: Math.ceil(low / step), max: Math.max(Math.ceil(low / step), Math.floor(high / step)) })
      .map((n) => n * step);
  }
  return fc.double({ min: min ?? -1_000_000, max: max ?? 1_000_000, noNaN: true, noDefaultInfinity: true });
}

/** A generator of values valid per a JSON Schema (as far as it says: zod refinements are not in it). */
export function arbitraryOf(schema: JsonSchema, root: JsonSchema = schema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/\$defs\//, '');
    const target = schema.$ref === '#' ? root : root.$defs?.[name];
    if (!target) return fc.constant(null);
    return depth > DEPTH ? fc.constant(smallest(target, root)) : arbitraryOf(target, root, depth + 1);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => arbitraryOf(choice, root, depth + 1)));
  if (schema.allOf?.length) return arbitraryOf(Object.assign({}, ...schema.allOf), root, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : undefined;
  if (!type) return fc.jsonValue({ maxDepth: 2 });
  if (type.length > 1) return fc.oneof(...type.map((one) => arbitraryOf({ ...schema, type: one }, root, depth)));
  switch (type[0]) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (schema.prefixItems) return fc.tuple(...schema.prefixItems.map((item) => arbitraryOf(item, root, depth + 1)));
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, minLength + 3));
      return fc.array(schema.items ? arbitraryOf(schema.items, root, depth + 1) : fc.jsonValue({ maxDepth: 1 }), {
        minLength,
        maxLength,
      });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record = Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [key, arbitraryOf(property, root, depth + 1)]),
      );
      return fc.record(record, { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The least value of a schema, where recursion must stop. */
function smallest(schema: JsonSchema, root: JsonSchema): unknown {
  if (schema.anyOf || schema.oneOf) return null;
  if (schema.type === 'array') return [];
  if (schema.type === 'object') {
    return Object.fromEntries(
      (schema.required ?? []).map((key) => [key, smallest(schema.properties?.[key] ?? {}, root)]),
    );
  }
  if (schema.type === 'string') return 'x'.repeat(schema.minLength ?? 1);
  if (schema.type === 'number' || schema.type === 'integer') return schema.minimum ?? 0;
  if (schema.type === 'boolean') return false;
  return null;
}

/** The JSON Schema of a request part, as a client sends it (before zod's transforms and defaults). */
export function requestSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

const deepArray = (depth: number): unknown => {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const deepObject = (depth: number): unknown => {
  let value: unknown = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

/** Values no field expects: wrong types, boundaries, hostile text, huge numbers, deep nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    -0,
    0.5,
    1e308,
    -1e308,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53 + 2,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    5e-324,
    '',
    ' ',
    '0',
    '-1',
    '1e999',
    'NaN',
    'true',
    'null',
    'a\u0000b',
    'a\ud800b',
    '\udc00',
    '\u202eevil',
    'e\u0301\u0301\u0301',
    '😀'.repeat(300),
    '\uFEFFbom',
    "' or 1=1 --",
    '<script>document.title = document.cookie</script>',
    '../../etc/passwd',
    '%00',
    ['$', '{jndi:ldap://x}'].join(''), // a Log4Shell probe
    'x'.repeat(256),
    'x'.repeat(70_000),
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '2020-02-30T25:61:61Z',
    [],
    [null],
    {},
    { __proto__: { polluted: true } },
    JSON.parse('{"__proto__":{"polluted":true}}'),
    { constructor: { prototype: { polluted: true } } },
    deepArray(2000),
    deepObject(2000),
  ),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
);

type Json = unknown;

/** Every path into a value (the empty path is the value itself). */
function pathsOf(
  value: Json,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  out.push(prefix);
  if (prefix.length > 8 || value === null || typeof value !== 'object') return out;
  for (const [key, entry] of Object.entries(value)) {
    pathsOf(entry, [...prefix, Array.isArray(value) ? Number(key) : key], out);
  }
  return out;
}

function replaceAt(value: Json, path: (string | number)[], replace: (old: Json) => Json | typeof REMOVE): Json {
  if (path.length === 0) {
    const replaced = replace(value);
    return replaced === REMOVE ? undefined : replaced;
  }
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) {
    const copy = [...value];
    const next = replaceAt(copy[head as number], rest, replace);
    if (next === undefined && rest.length === 0) copy.splice(head as number, 1);
    else copy[head as number] = next;
    return copy;
  }
  const copy: Record<string, Json> = { ...(value as object) };
  const next = replaceAt(copy[head], rest, replace);
  if (next === undefined && rest.length === 0) delete copy[head];
  // defineProperty, so a key named __proto__ stays an own key (as JSON.parse makes it) instead of a prototype.
  else Object.defineProperty(copy, head, { value: next, enumerable: true, writable: true, configurable: true });
  return copy;
}

const REMOVE = Symbol('remove');

export type Mutation =
  | { kind: 'replace'; at: number; with: unknown }
  | { kind: 'remove'; at: number }
  | { kind: 'extra field'; at: number; name: string; with: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), with: hostileValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('extra field' as const),
      at: fc.nat(),
      name: fc.constantFrom('extra', 'id', 'ownerId', 'role', 'createdAt', '__proto__', 'constructor', 'a\u0000'),
      with: hostileValue,
    }),
  },
);

/** Applies a mutation to a valid value: `at` picks one of its paths (modulo their count). */
export function mutate(value: Json, change: Mutation): Json {
  const paths = pathsOf(value);
  const path = paths[change.at % paths.length] ?? [];
  if (change.kind === 'replace') return replaceAt(value, path, () => change.with);
  if (change.kind === 'remove') return replaceAt(value, path, () => REMOVE);
  return replaceAt(value, path, (old) =>
    old !== null && typeof old === 'object' && !Array.isArray(old)
      ? Object.defineProperty({ ...old }, change.name, { value: change.with, enumerable: true })
      : { [change.name]: change.with },
  );
}

/** A raw request body that is not the JSON object a route expects, with the content type it is sent as. */
export interface RawBody {
  contentType: string | undefined;
  payload: string | undefined;
}

export const rawBody: fc.Arbitrary<RawBody> = fc.oneof(
  fc.record({
    contentType: fc.constant('application/json'),
    payload: fc.constantFrom(
      '',
      '{',
      '{"a":',
      'null',
      '[]',
      '"text"',
      '1e400',
      '{"name":1e400}',
      '{"a":1,"a":2}',
      '\uFEFF{}',
      `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
      '{"__proto__":{"admin":true}}',
    ),
  }),
  fc.record({
    contentType: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json; charset=utf-16',
      'application/octet-stream',
    ),
    payload: fc.constantFrom('{}', 'a=b', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--', '<a/>'),
  }),
  fc.constant<RawBody>({ contentType: undefined, payload: undefined }),
);
