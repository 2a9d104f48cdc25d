import type { Role } from '@streamcloud/contract';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';

// The role matrix every endpoint gets (docs/conventions.md, Tests): who calls, what each is answered, and the
// tests that check it. helpers.ts re-exports it, so a test imports it with the rest of its helpers.

export interface TestAccount {
  id: string;
  username: string;
  password: string;
  role: Role;
  token: string;
}

/**
 * Who calls each endpoint in the role matrix (docs/conventions.md): nobody, the USER who owns what the
 * test made, a USER of another account, an ADMIN impersonating the owner, and an ADMIN, last (its call
 * may remove what the others were refused).
 */
export const CALLERS = ['anonymous', 'USER owner', 'USER other', 'ADMIN impersonating owner', 'ADMIN'] as const;
export type Caller = (typeof CALLERS)[number];
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The accounts of the role matrix: root (ADMIN), alice (USER, the owner) and bob (USER of another account). */
export interface Roles {
  admin: TestAccount;
  owner: TestAccount;
  other: TestAccount;
  /** Each caller's bearer token (none for anonymous). */
  tokens: Record<Caller, string | undefined>;
  /** One API call as one of the callers. */
  call: (caller: Caller, method: Method, url: string, payload?: object) => Promise<LightMyRequestResponse>;
}

/** What an endpoint on the owner's resource answers: `ok` to the owner and to ADMIN, 404 to another account. */
export const ownerOnly = (ok: number, other = 404): Record<Caller, number> => ({
  anonymous: 401,
  'USER owner': ok,
  'USER other': other,
  'ADMIN impersonating owner': ok,
  ADMIN: ok,
});

/** What an endpoint any signed-in caller may use answers. */
export const signedIn = (ok: number): Record<Caller, number> => ownerOnly(ok, ok);

/** What an ADMIN-only endpoint answers: 403 to a USER and to an ADMIN acting as one. */
export const adminOnly = (ok: number): Record<Caller, number> => ({
  anonymous: 401,
  'USER owner': 403,
  'USER other': 403,
  'ADMIN impersonating owner': 403,
  ADMIN: ok,
});

export interface MatrixRow<Subject> {
  /** The endpoint, as the test names it. */
  name: string;
  /** Puts the subject in the state the call needs. */
  prepare?: (subject: Subject) => Promise<void>;
  call: (subject: Subject) => [Method, string, object?];
  expected: Record<Caller, number>;
}

export interface MatrixOptions<Subject> {
  /** The current test's accounts (from `t.roleMatrix()` in a `beforeEach`). */
  roles: () => Roles;
  /** Makes, as the owner, what the calls are about; once per test. */
  subject?: () => Promise<Subject>;
  /** More assertions on each answer. */
  check?: (response: LightMyRequestResponse, caller: Caller, subject: Subject) => Promise<void> | void;
  /** One test per row calling as every caller in turn on one subject, instead of one test per row and caller. */
  oneTestPerRow?: boolean;
}

/** Declares the role-matrix tests: every row answers each caller with its expected status. */
export function roleMatrixTests<Subject = undefined>(
  rows: MatrixRow<Subject>[],
  options: MatrixOptions<Subject>,
): void {
  const arrange = async (row: MatrixRow<Subject>) => {
    const subject = (await options.subject?.()) as Subject;
    await row.prepare?.(subject);
    return subject;
  };
  const attempt = async (row: MatrixRow<Subject>, caller: Caller, subject: Subject) => {
    const [method, url, payload] = row.call(subject);
    const response = await options.roles().call(caller, method, url, payload);
    expect(response.statusCode, `${caller}: ${response.body}`).toBe(row.expected[caller]);
    await options.check?.(response, caller, subject);
  };
  for (const row of rows) {
    if (options.oneTestPerRow) {
      it(row.name, async () => {
        const subject = await arrange(row);
        for (const caller of CALLERS) await attempt(row, caller, subject);
      });
      continue;
    }
    for (const caller of CALLERS) {
      it(`${row.name} as ${caller} answers ${row.expected[caller]}`, async () =>
        attempt(row, caller, await arrange(row)));
    }
  }
}

/** A 400 whose errors name `path`, with `message` when given. */
export function expectValidationError(response: LightMyRequestResponse, path: string, message?: string): void {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json().errors, response.body).toContainEqual(
    message === undefined ? expect.objectContaining({ path }) : { path, message },
  );
}
