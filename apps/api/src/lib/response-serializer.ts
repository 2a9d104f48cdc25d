import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serializer = (data: unknown) => string;
type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of a response as fast-json-stringify reads it, or null when zod's output cannot be
 * written as one (a transform, a custom check): such a response keeps zod's serializer.
 *
 * Two rewrites keep the answers what zod's encode + JSON.stringify wrote, only faster:
 * - `additionalProperties: false` goes: a zod object strips unknown keys and fast-json-stringify writes
 *   only declared properties either way, but its union branches are chosen by validation, which must,
 *   like zod's non-strict objects, let a branch match a row that carries more keys than it declares;
 * - `anyOf: [X, {type: 'null'}]` (zod's nullable) becomes X accepting null, so a nullable field is
 *   written directly rather than after validating the value against each branch.
 */
export function responseJsonSchema(schema: z.ZodType): JsonSchema | null {
  try {
    return simplify(z.toJSONSchema(schema, { target: 'draft-07', io: 'output', unrepresentable: 'throw' }));
  } catch {
    return null;
  }
}

function simplify(node: unknown): JsonSchema {
  const schema = { ...(node as JsonSchema) };
  if (schema.additionalProperties === false) delete schema.additionalProperties;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' || key === 'definitions') {
      schema[key] = Object.fromEntries(Object.entries(value as JsonSchema).map(([name, sub]) => [name, simplify(sub)]));
    } else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf' || (key === 'items' && Array.isArray(value))) {
      schema[key] = (value as unknown[]).map(simplify);
    } else if ((key === 'items' || key === 'additionalProperties') && typeof value === 'object' && value !== null) {
      schema[key] = simplify(value);
    }
  }
  const branches = schema.anyOf as JsonSchema[] | undefined;
  if (branches?.length === 2) {
    const other = branches.find((branch) => !isNull(branch));
    if (other && branches.some(isNull) && typeof other.type === 'string' && !other.anyOf && !other.oneOf) {
      const { anyOf: _, ...rest } = schema;
      return { ...rest, ...orNull(other) };
    }
  }
  return schema;
}

/**
 * A schema that also accepts null: `nullable` for objects and arrays (fast-json-stringify writes them with
 * it), null added to the type otherwise, and to the values of an enum or a const, which ajv (choosing a
 * union's branch) checks apart from the type.
 */
function orNull(schema: JsonSchema): JsonSchema {
  if (schema.type === 'object' || schema.type === 'array') return { ...schema, nullable: true };
  const { const: constant, ...rest } = schema;
  const values = 'const' in schema ? [constant] : (schema.enum as unknown[] | undefined);
  return { ...rest, type: [schema.type, 'null'], ...(values ? { enum: [...values, null] } : {}) };
}

const isNull = (branch: JsonSchema) => branch.type === 'null' && Object.keys(branch).length === 1;

/**
 * Fastify's serializer compiler for the contract's zod response schemas: each is compiled once, on its
 * first answer (tests build many apps that answer few requests), into a fast-json-stringify function.
 * The data is not validated again: the handlers' results are typed by the same schemas; what the compiled
 * function refuses is handed to zod's serializer.
 */
export function compiledSerializerCompiler(): FastifySerializerCompiler<z.ZodType> {
  const compiled = new WeakMap<z.ZodType, Serializer>();
  const compile = (schema: z.ZodType, route: { method: string; url: string }): Serializer => {
    const json = responseJsonSchema(schema);
    const checked = zodSerializerCompiler({ schema, ...route } as never) as Serializer;
    let serializer = checked;
    if (json) {
      const fast = fastJsonStringify(json as unknown as Schema);
      // A value the compiled function cannot place (no union branch fits) goes to zod, which answers as before.
      serializer = (data) => {
        try {
          return fast(data);
        } catch {
          return checked(data);
        }
      };
    }
    compiled.set(schema, serializer);
    return serializer;
  };
  return ({ schema, method, url }) => {
    let serializer: Serializer | undefined;
    return (data: unknown) => {
      serializer ??= compiled.get(schema) ?? compile(schema, { method, url });
      return serializer(data);
    };
  };
}
