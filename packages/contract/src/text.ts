import type { z } from 'zod';

/**
 * Text the API accepts must be storable and well-formed: PostgreSQL refuses NUL in text and JSON, and a
 * lone UTF-16 surrogate is not Unicode (JSON columns refuse it, text columns would store U+FFFD instead).
 * `defineRoute` applies `rejectMalformedText` to every route's params, query and body, so every string the
 * contract defines — and every one a later field adds — is checked without anyone having to remember it.
 */
export const TEXT_MESSAGES = {
  nul: 'Must not contain NUL characters (U+0000)',
  surrogate: 'Must be well-formed Unicode: an unpaired surrogate (U+D800 to U+DFFF) is not a character',
} as const;

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be accepted as text, or null when it can. */
export function textFault(text: string): string | null {
  if (text.includes('\u0000')) return TEXT_MESSAGES.nul;
  if (UNPAIRED_SURROGATE.test(text)) return TEXT_MESSAGES.surrogate;
  return null;
}

export interface TextFault {
  path: PropertyKey[];
  message: string;
}

interface Visit {
  value: unknown;
  key: PropertyKey | null;
  parent: Visit | null;
}

const pathOf = (visit: Visit, key?: PropertyKey): PropertyKey[] => {
  const path: PropertyKey[] = key === undefined ? [] : [key];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) path.push(at.key as PropertyKey);
  return path.reverse();
};

/**
 * Every malformed string in a value, object keys included, with its path. Walks without recursion and
 * builds a path only for a fault, so a deeply nested value costs neither stack nor quadratic memory.
 */
export function findTextFaults(value: unknown): TextFault[] {
  const faults: TextFault[] = [];
  const pending: Visit[] = [{ value, key: null, parent: null }];
  const seen = new Set<object>();
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const current = visit.value;
    if (typeof current === 'string') {
      const message = textFault(current);
      if (message) faults.push({ path: pathOf(visit), message });
      continue;
    }
    if (typeof current !== 'object' || current === null || current instanceof Date || seen.has(current)) continue;
    seen.add(current);
    for (const [key, entry] of Object.entries(current)) {
      const index = Array.isArray(current) ? Number(key) : key;
      const message = Array.isArray(current) ? null : textFault(key);
      if (message) faults.push({ path: pathOf(visit, key), message });
      pending.push({ value: entry, key: index, parent: visit });
    }
  }
  return faults;
}

/** Adds the malformed-text check to a request schema (params, query or body). */
export function rejectMalformedText<S extends z.ZodType>(schema: S): S {
  return schema.check((payload) => {
    for (const fault of findTextFaults(payload.value)) {
      payload.issues.push({ code: 'custom', input: payload.value, path: fault.path, message: fault.message });
    }
  }) as S;
}
