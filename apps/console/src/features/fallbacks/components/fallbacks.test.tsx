import {
  emptyResponse,
  errorResponse,
  type Handler,
  jsonResponse,
  type RecordedRequest,
} from '@streamcloud/api-client/testing';
import type { Fallback } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { userAccount, whoAmI } from '@/test/fixtures';
import { pngFile } from '@/test/images';
import { renderApp } from '@/test/render-app';

const STREAM = '00000000-0000-4000-8000-00000000c001';
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const fallback = (overrides: Partial<Fallback>): Fallback => ({
  id: '00000000-0000-4000-8000-00000000f001',
  streamId: STREAM,
  type: 'Slate',
  label: 'Be right back',
  state: 'Pending',
  message: null,
  settings: { resources: [{ type: 'DATA_URI', data: PIXEL }] },
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});
const LIST = [
  fallback({}),
  fallback({
    id: '00000000-0000-4000-8000-00000000f002',
    type: 'Input',
    label: 'Backup feed',
    state: 'Ingestion',
    settings: { resources: [{ type: 'URL', data: 'rtmp://backup.example.com/live/b' }] },
  }),
  fallback({
    id: '00000000-0000-4000-8000-00000000f003',
    type: 'Video',
    label: 'Loop',
    state: 'Error',
    message: 'File not found',
    settings: { resources: [{ type: 'URL', data: 'https://cdn.example.com/loop.mp4' }] },
  }),
];

function renderFallbacks(handlers: Record<string, Handler> = {}) {
  return renderApp({
    path: `/streams/fallback/${STREAM}`,
    currentToken: 'token',
    handlers: {
      'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(userAccount)),
      'GET /api/v1/fallbacks': () => jsonResponse(LIST),
      ...handlers,
    },
  });
}

const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);
const png = (width: number, height: number, size = 100) => pngFile(width, height, size, 'slate.png');

describe('/streams/fallback/{id}', () => {
  it('lists the fallbacks with their state colours and leads back to the dashboard', async () => {
    const { mock } = renderFallbacks();
    const table = await screen.findByRole('table');
    const rowOf = (label: string) => within(within(table).getByText(label).closest('tr') as HTMLElement);
    expect(rowOf('Be right back').getByText('Pending').className).toContain('bg-primary');
    expect(rowOf('Backup feed').getByText('Ingestion').className).toContain('bg-success');
    expect(rowOf('Loop').getByText('Error').className).toContain('bg-danger');
    rowOf('Loop').getByText('File not found');
    rowOf('Be right back').getByRole('img', { name: 'Slate of Be right back' });
    rowOf('Backup feed').getByText('rtmp://backup.example.com/live/b');
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe(`/streams/view/${STREAM}`);
    expect(mock.requests[1]?.url.search).toBe(`?streamId=${STREAM}`);
  });

  it('adds a slate from an uploaded image, checked by its bytes', async () => {
    let body: unknown;
    const { user } = renderFallbacks({
      'POST /api/v1/fallbacks': (request: RecordedRequest) => {
        body = request.body;
        return jsonResponse(fallback({ id: '00000000-0000-4000-8000-00000000f009' }), 201);
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add fallback' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add fallback' });
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Slate');
    expect((within(dialog).getByLabelText('Source') as HTMLSelectElement).value).toBe('DATA_URI');
    await user.type(within(dialog).getByLabelText('Label'), 'Intermission');
    const upload = within(dialog).getByLabelText('Slate image') as HTMLInputElement;
    await user.upload(upload, png(1921, 1081));
    await waitFor(() => expect(alerts()).toEqual(['Maximum dimensions allowed 1920x1080 px']));
    await user.upload(upload, png(10, 10, 5_000_001));
    await waitFor(() => expect(alerts()).toContain('Maximum size allowed is 5 Mb'));
    await user.upload(upload, png(1920, 1080));
    await within(dialog).findByRole('img', { name: 'Slate preview' });
    await waitFor(() => expect(save.disabled).toBe(false));
    await user.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(body).toMatchObject({
      streamId: STREAM,
      type: 'Slate',
      label: 'Intermission',
      settings: { resources: [{ type: 'DATA_URI', data: expect.stringMatching(/^data:image\/png;base64,/) }] },
    });
  });

  it('checks the URL of an input fallback and the label length', async () => {
    const { user } = renderFallbacks();
    await user.click(await screen.findByRole('button', { name: 'Add fallback' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add fallback' });
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Input');
    await user.type(within(dialog).getByLabelText('URL'), 'ftp://example.com/x');
    await within(dialog).findByText('URL must be a rtmp, rtmps, rtsp, srt, http, https URL');
    await user.click(within(dialog).getByLabelText('Label'));
    await user.paste('x'.repeat(251));
    await within(dialog).findByText('Label must be at most 250 characters');
    expect((within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("alerts the server's message or 'Something wrong with fallback creating'", async () => {
    let answer = errorResponse(400, 'Maximum dimensions allowed 1920x1080 px');
    const { user } = renderFallbacks({ 'POST /api/v1/fallbacks': () => answer });
    await user.click(await screen.findByRole('button', { name: 'Add fallback' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add fallback' });
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Video');
    await user.type(within(dialog).getByLabelText('URL'), 'https://cdn.example.com/a.mp4');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alerts()).toEqual(['Maximum dimensions allowed 1920x1080 px']));
    answer = new Response('', { status: 500 });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alerts()).toContain('Something wrong with fallback creating'));
    screen.getByRole('dialog', { name: 'Add fallback' });
  });

  it("edits a fallback; a failure alerts 'Something wrong with fallback updating'", async () => {
    let body: unknown;
    let fail = true;
    const { user } = renderFallbacks({
      [`PUT /api/v1/fallbacks/${LIST[1]?.id}`]: (request) => {
        body = request.body;
        return fail ? new Response('', { status: 502 }) : jsonResponse({ ...LIST[1], label: 'Renamed' });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit fallback Backup feed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit fallback' });
    expect((within(dialog).getByLabelText('Type') as HTMLSelectElement).value).toBe('Input');
    expect((within(dialog).getByLabelText('URL') as HTMLInputElement).value).toBe('rtmp://backup.example.com/live/b');
    await user.clear(within(dialog).getByLabelText('Label'));
    await user.type(within(dialog).getByLabelText('Label'), 'Renamed');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alerts()).toEqual(['Something wrong with fallback updating']));
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(body).toEqual({
      streamId: STREAM,
      type: 'Input',
      label: 'Renamed',
      settings: { resources: [{ type: 'URL', data: 'rtmp://backup.example.com/live/b' }] },
    });
  });

  it("deletes after asking; a failure alerts 'Something wrong with fallback delete'", async () => {
    let answer = new Response('', { status: 500 });
    const { user, mock } = renderFallbacks({ [`DELETE /api/v1/fallbacks/${LIST[2]?.id}`]: () => answer });
    await user.click(await screen.findByRole('button', { name: 'Delete fallback Loop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete fallback' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(mock.requests.filter((request) => request.method === 'DELETE')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Delete fallback Loop' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete fallback' })).getByRole('button', { name: 'Ok' }),
    );
    await waitFor(() => expect(alerts()).toEqual(['Something wrong with fallback delete']));
    answer = emptyResponse();
    await user.click(screen.getByRole('button', { name: 'Delete fallback Loop' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete fallback' })).getByRole('button', { name: 'Ok' }),
    );
    await waitFor(() => expect(mock.requests.filter((request) => request.method === 'DELETE')).toHaveLength(2));
  });
});
