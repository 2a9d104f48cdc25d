import { emptyResponse, errorResponse, jsonResponse } from '@streamcloud/api-client/testing';
import type { TwoFactorStatus } from '@streamcloud/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminAccount, EMPTY_PAGE_DATA, userAccount, whoAmI } from '@/test/fixtures';
import { renderApp, renderAsUser } from '@/test/render-app';
import { TWO_FACTOR_TEXTS } from './two-factor-card';

const STATUS_URL = `GET /api/v1/accounts/${userAccount.id}/two-factor`;
const OFF: TwoFactorStatus = { enabled: false, enabledAt: null, recoveryCodesLeft: 0 };
const ON: TwoFactorStatus = { enabled: true, enabledAt: '2026-01-01T00:00:00.000Z', recoveryCodesLeft: 10 };
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, index) => `abcd-efgh-ijkl-mn${String.fromCharCode(97 + index)}a`);

const card = async () =>
  (await screen.findByRole('heading', { name: 'Two-factor authentication' })).closest('.card') as HTMLElement;

describe('Account settings: two-factor authentication', () => {
  it('enables: QR code and manual key, a code to confirm, then the recovery codes once', async () => {
    let status = OFF;
    let confirmed: unknown;
    const started: unknown[] = [];
    const { user } = renderAsUser('/account/settings', {
      'GET /api/v1/api-keys': () => jsonResponse([]),
      [STATUS_URL]: () => jsonResponse(status),
      'POST /api/v1/two-factor/enrolment': (request) => {
        started.push(request.body);
        if ((request.body as { password: string }).password !== 'right password') {
          return errorResponse(400, 'Invalid username or password', { code: 'INVALID_CREDENTIALS' });
        }
        return jsonResponse({ secret: SECRET, uri: `otpauth://totp/Streamcloud%3Aalice?secret=${SECRET}` }, 201);
      },
      'POST /api/v1/two-factor/enrolment/confirm': (request) => {
        confirmed = request.body;
        if ((request.body as { code: string }).code !== '123456') {
          return errorResponse(400, 'Invalid authentication code', { code: 'INVALID_CODE' });
        }
        status = ON;
        return jsonResponse({ recoveryCodes: CODES });
      },
    });
    const section = await card();
    expect(await within(section).findByText(TWO_FACTOR_TEXTS.off)).not.toBeNull();
    await user.click(within(section).getByRole('button', { name: 'Enable' }));
    // The password again first: required, and a wrong one is refused in an alert with sign-in's words.
    const passwordForm = await within(section).findByRole('form', { name: 'Confirm your password' });
    const password = within(passwordForm).getByLabelText('Password') as HTMLInputElement;
    expect(password.type).toBe('password');
    expect(password.autocomplete).toBe('current-password');
    await user.click(within(passwordForm).getByRole('button', { name: 'Continue' }));
    expect(await within(passwordForm).findByText(TWO_FACTOR_TEXTS.passwordRequired)).not.toBeNull();
    expect(started).toEqual([]);
    await user.type(password, 'wrong password');
    await user.click(within(passwordForm).getByRole('button', { name: 'Continue' }));
    expect((await within(passwordForm).findByRole('alert')).textContent).toBe('Invalid username or password');
    expect(within(section).queryByRole('img', { name: 'QR code for your authenticator app' })).toBeNull();
    await user.type(within(passwordForm).getByLabelText('Password'), 'right password');
    await user.click(within(passwordForm).getByRole('button', { name: 'Continue' }));
    expect(await within(section).findByRole('img', { name: 'QR code for your authenticator app' })).not.toBeNull();
    expect(started).toEqual([{ password: 'wrong password' }, { password: 'right password' }]);
    expect((within(section).getByLabelText('Manual key') as HTMLInputElement).value).toBe(SECRET);
    const form = within(section).getByRole('form', { name: 'Confirm two-factor authentication' });
    await user.click(within(form).getByRole('button', { name: 'Confirm' }));
    expect(await within(form).findByText(TWO_FACTOR_TEXTS.codeRequired)).not.toBeNull();
    await user.type(within(form).getByLabelText('Authentication code'), '654321');
    await user.click(within(form).getByRole('button', { name: 'Confirm' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Invalid authentication code');
    await user.type(within(form).getByLabelText('Authentication code'), '123456');
    await user.click(within(form).getByRole('button', { name: 'Confirm' }));
    const list = await within(section).findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(confirmed).toEqual({ code: '123456' });
    expect(within(section).getByRole('button', { name: 'Download' })).not.toBeNull();
    await user.click(within(section).getByRole('button', { name: 'Done' }));
    expect(await within(section).findByText(/recovery codes left/)).not.toBeNull();
    expect(within(section).queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  });

  it('disables with a code; a refusal shows in an alert', async () => {
    let status = ON;
    const { user } = renderAsUser('/account/settings', {
      'GET /api/v1/api-keys': () => jsonResponse([]),
      [STATUS_URL]: () => jsonResponse(status),
      'POST /api/v1/two-factor/disable': (request) => {
        if ((request.body as { code: string }).code !== '123456') {
          return errorResponse(400, 'Invalid authentication code', { code: 'INVALID_CODE' });
        }
        status = OFF;
        return emptyResponse();
      },
    });
    const section = await card();
    await user.click(await within(section).findByRole('button', { name: 'Disable' }));
    const form = within(section).getByRole('form', { name: 'Disable two-factor authentication' });
    await user.type(within(form).getByLabelText('Authentication code'), '000000');
    await user.click(within(form).getByRole('button', { name: 'Disable two-factor authentication' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Invalid authentication code');
    await user.type(within(form).getByLabelText('Authentication code'), '123456');
    await user.click(within(form).getByRole('button', { name: 'Disable two-factor authentication' }));
    expect(await within(section).findByText(TWO_FACTOR_TEXTS.off)).not.toBeNull();
  });
});

describe('an ADMIN the security settings require to enrol', () => {
  it('is sent to Account settings from any page, told why', async () => {
    const { location } = renderApp({
      path: '/streams',
      currentToken: 'token',
      handlers: {
        // The streams page may start loading before whoami answers.
        ...EMPTY_PAGE_DATA,
        'GET /api/v1/accounts/whoami': () =>
          jsonResponse({ ...whoAmI(adminAccount), twoFactorEnrolmentRequired: true }),
        'GET /api/v1/api-keys': () => jsonResponse([]),
        [`GET /api/v1/accounts/${adminAccount.id}/two-factor`]: () => jsonResponse(OFF),
      },
    });
    expect(await screen.findByText(TWO_FACTOR_TEXTS.required)).not.toBeNull();
    expect(location()).toBe('/account/settings');
  });

  it('is sent there when the API refuses it (the setting turned on while its console was open)', async () => {
    let required = false;
    let whoamiCalls = 0;
    const refused = () => {
      required = true;
      return errorResponse(403, 'Administrators must enable two-factor authentication', {
        code: 'TWO_FACTOR_REQUIRED',
      });
    };
    const { location } = renderApp({
      path: '/streams',
      currentToken: 'token',
      handlers: {
        ...EMPTY_PAGE_DATA,
        'GET /api/v1/inputs': refused,
        // The first whoami is the one read before the setting changed.
        'GET /api/v1/accounts/whoami': () =>
          jsonResponse({ ...whoAmI(adminAccount), twoFactorEnrolmentRequired: whoamiCalls++ > 0 && required }),
        'GET /api/v1/api-keys': () => jsonResponse([]),
        [`GET /api/v1/accounts/${adminAccount.id}/two-factor`]: () => jsonResponse(OFF),
      },
    });
    expect(await screen.findByText(TWO_FACTOR_TEXTS.required)).not.toBeNull();
    expect(location()).toBe('/account/settings');
  });
});
