// @vitest-environment node
// As at build time (build/prerender.ts): rendered in Node, without a browser.
import { within } from '@testing-library/dom';
import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { PRERENDERED_SCREENS } from './prerender';

/** The screen's HTML as a page of its own, to be read by role. */
function page(path: string) {
  const { document } = new Window();
  document.body.innerHTML = PRERENDERED_SCREENS[path]?.() ?? '';
  return within(document.body as unknown as HTMLElement);
}

describe('the screens pre-rendered into index.html', () => {
  it('the sign-in page: its labelled fields, and its button disabled until the app can send the form', () => {
    const login = page('/login');
    login.getByRole('heading', { name: 'Login' });
    login.getByRole('textbox', { name: 'Username' });
    expect(login.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(login.getByRole('button', { name: 'Login' }).hasAttribute('disabled')).toBe(true);
  });

  it('the stream list: the signed-in frame, the heading, search and filters, waiting for the streams', () => {
    const list = page('/streams');
    list.getByRole('navigation');
    list.getByRole('heading', { name: 'Streams' });
    list.getByRole('searchbox', { name: 'Search' });
    list.getByRole('button', { name: 'Create stream' });
    expect(list.getByRole('status').textContent).toBe('Loading...');
  });

  it("links as the app's hash router does", () => {
    expect(page('/streams').getByRole('link', { name: 'Storages' }).getAttribute('href')).toBe('#/storages');
  });
});
