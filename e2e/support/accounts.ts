import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { accountRoutes, authRoutes, type Role } from '@streamcloud/contract';
import { api } from './api';

export interface Credentials {
  username: string;
  password: string;
}

export interface TestAccount extends Credentials {
  id: string;
  role: Role;
}

export const ADMIN: Credentials = {
  username: process.env.E2E_ADMIN_USERNAME ?? 'admin',
  password: process.env.E2E_ADMIN_PASSWORD ?? 'admin-password-1',
};

/** A name no other test (nor an earlier run on the same database) uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export async function apiLogin(request: APIRequestContext, credentials: Credentials): Promise<string> {
  const answer = await api(request).call(authRoutes.login, { body: credentials });
  if (!('token' in answer))
    throw new Error(`${credentials.username} signs in with two factors: no token from the password alone`);
  return answer.token;
}

/** Creates a fresh account through the API, as the admin. */
export async function createAccount(request: APIRequestContext, role: Role = 'USER'): Promise<TestAccount> {
  const adminToken = await apiLogin(request, ADMIN);
  const credentials = { username: uniqueName(role.toLowerCase()), password: `pw-${uniqueName('secret')}` };
  const { id } = await api(request, adminToken).call(accountRoutes.create, { body: { ...credentials, role } });
  return { ...credentials, id, role };
}

/** Fills in and submits the login form of the page being shown. */
export async function submitLogin(page: Page, { username, password }: Credentials): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

export async function loginViaUi(page: Page, credentials: Credentials): Promise<void> {
  await page.goto('/#/login');
  // The app has replaced the pre-rendered sign-in copy (whose button cannot sign in yet): on a loaded machine
  // its code may arrive after the first paint by seconds.
  await expect(page.locator('.prerendered')).toHaveCount(0);
  await submitLogin(page, credentials);
  // The password is checked with a slow KDF (scrypt, OWASP's cost): on a loaded two-core machine a sign-in
  // queued behind others' takes more than the default 10 s.
  await expect(page.getByRole('button', { name: credentials.username, exact: true })).toBeVisible({ timeout: 30_000 });
}
