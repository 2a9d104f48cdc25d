import { errorResponse, type Handler, jsonResponse } from '@streamcloud/api-client/testing';
import type { StreamStatus } from '@streamcloud/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { createTestServices } from '@/test/test-services';
import { SnapshotPreviews } from './snapshot-previews';
import { SnapshotSettingsButton } from './snapshot-settings-button';

const STREAM = '00000000-0000-4000-8000-00000000d001';
const BASE = `/api/v1/snapshots/stream/${STREAM}`;

/** The components alone, as the dashboard mounts them, over a mocked fetch. */
function renderWith(element: ReactElement, handlers: Record<string, Handler>) {
  const { mock, services } = createTestServices(handlers);
  const view = render(<AppProvider services={services}>{element}</AppProvider>);
  return { mock, user: userEvent.setup(), view, services };
}

const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);
/** A fieldset of the dialog, once the settings have loaded (the form shows after both reads end, read or failed). */
const group = async (dialog: HTMLElement, name: string) => within(await within(dialog).findByRole('group', { name }));

afterEach(() => {
  vi.useRealTimers();
});

describe('snapshot settings', () => {
  it('loads both directions, sends a disabled direction as null and the other as its settings', async () => {
    const bodies: Record<string, unknown> = {};
    const { user } = renderWith(<SnapshotSettingsButton streamId={STREAM} disabled={false} />, {
      [`GET ${BASE}/incoming`]: () => jsonResponse({ format: 'PNG', quality: 'High', interval: 10 }),
      [`GET ${BASE}/outgoing`]: () => jsonResponse(null),
      [`PUT ${BASE}/incoming`]: (request) => {
        bodies.incoming = request.body;
        return jsonResponse(request.body);
      },
      [`PUT ${BASE}/outgoing`]: (request) => {
        bodies.outgoing = request.body;
        return jsonResponse(request.body);
      },
    });
    await user.click(screen.getByRole('button', { name: 'Snapshots' }));
    const dialog = await screen.findByRole('dialog', { name: 'Snapshot settings' });
    const incoming = await group(dialog, 'Incoming');
    await waitFor(() =>
      expect((incoming.getByLabelText('Enable incoming snapshots') as HTMLInputElement).checked).toBe(true),
    );
    expect((incoming.getByLabelText('Format') as HTMLSelectElement).value).toBe('PNG');
    expect((incoming.getByLabelText('Quality') as HTMLSelectElement).value).toBe('High');
    expect((incoming.getByLabelText('Interval (seconds)') as HTMLInputElement).value).toBe('10');
    const outgoing = await group(dialog, 'Outgoing');
    expect((outgoing.getByLabelText('Enable outgoing snapshots') as HTMLInputElement).checked).toBe(false);
    expect((outgoing.getByLabelText('Format') as HTMLSelectElement).value).toBe('JPEG');
    expect((outgoing.getByLabelText('Quality') as HTMLSelectElement).value).toBe('Medium');
    expect((outgoing.getByLabelText('Interval (seconds)') as HTMLInputElement).value).toBe('5');
    expect((outgoing.getByLabelText('Format') as HTMLSelectElement).disabled).toBe(true);

    await user.click(incoming.getByLabelText('Enable incoming snapshots'));
    await user.click(outgoing.getByLabelText('Enable outgoing snapshots'));
    await user.clear(outgoing.getByLabelText('Interval (seconds)'));
    await user.type(outgoing.getByLabelText('Interval (seconds)'), '31');
    await outgoing.findByText('Interval must be at most 30');
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await user.clear(outgoing.getByLabelText('Interval (seconds)'));
    await user.type(outgoing.getByLabelText('Interval (seconds)'), '0');
    await outgoing.findByText('Interval must be at least 1');
    await user.clear(outgoing.getByLabelText('Interval (seconds)'));
    await outgoing.findByText('Interval is required');
    await user.type(outgoing.getByLabelText('Interval (seconds)'), '30');
    await waitFor(() => expect(save.disabled).toBe(false));
    await user.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies).toEqual({ incoming: null, outgoing: { format: 'JPEG', quality: 'Medium', interval: 30 } });
    expect(alerts()).toEqual(['Snapshot settings saved']);
  });

  it('fails silently on load (defaults, both off) and alerts a failed update', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let answer = errorResponse(400, 'Invalid request: body.interval: Interval must be at most 30');
    const { user } = renderWith(<SnapshotSettingsButton streamId={STREAM} disabled={false} />, {
      [`GET ${BASE}/incoming`]: () => errorResponse(500, 'Internal server error'),
      [`GET ${BASE}/outgoing`]: () => errorResponse(500, 'Internal server error'),
      [`PUT ${BASE}/incoming`]: () => answer,
    });
    await user.click(screen.getByRole('button', { name: 'Snapshots' }));
    const dialog = await screen.findByRole('dialog', { name: 'Snapshot settings' });
    const incoming = await group(dialog, 'Incoming');
    expect((incoming.getByLabelText('Enable incoming snapshots') as HTMLInputElement).checked).toBe(false);
    expect(alerts()).toEqual([]);
    expect(consoleError).toHaveBeenCalled();
    await user.click(incoming.getByLabelText('Enable incoming snapshots'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alerts()).toEqual(['Invalid request: body.interval: Interval must be at most 30']));
    answer = new Response('', { status: 503 });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alerts()).toContain('Something wrong with snapshot settings update'));
    screen.getByRole('dialog', { name: 'Snapshot settings' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('is a disabled button when the dashboard says so', () => {
    renderWith(<SnapshotSettingsButton streamId={STREAM} disabled />, {});
    expect((screen.getByRole('button', { name: 'Snapshots' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('snapshot previews', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const handlers = (images: { count: number }): Record<string, Handler> => ({
    [`GET ${BASE}/incoming`]: () => jsonResponse({ format: 'PNG', quality: 'High', interval: 1 }),
    [`GET ${BASE}/outgoing`]: () => jsonResponse(null),
    [`GET ${BASE}/incoming/image`]: () => {
      images.count++;
      return new Response(png, { status: 200, headers: { 'Content-Type': 'image/png' } });
    },
  });

  it.each<StreamStatus>(['Ingestion', 'Fallback'])(
    'shows the enabled directions in %s, refreshed at their interval',
    async (status) => {
      const images = { count: 0 };
      const { mock } = renderWith(<SnapshotPreviews streamId={STREAM} status={status} />, handlers(images));
      const image = (await screen.findByRole('img', { name: 'Incoming snapshot' })) as HTMLImageElement;
      expect(image.src).toMatch(/^blob:/);
      expect(screen.queryByRole('img', { name: 'Outgoing snapshot' })).toBeNull();
      await waitFor(() => expect(images.count).toBeGreaterThanOrEqual(2));
      const queries = mock.requests
        .filter((request) => request.url.pathname.endsWith('/image'))
        .map((request) => request.url.searchParams.get('t'));
      expect(new Set(queries).size).toBe(queries.length);
    },
  );

  it.each<StreamStatus | undefined>(['Idle', 'Pending', 'Error', undefined])(
    'shows nothing and loads nothing in %s',
    (status) => {
      const { mock, view } = renderWith(<SnapshotPreviews streamId={STREAM} status={status} />, {});
      expect(view.container.textContent).toBe('');
      expect(mock.requests).toEqual([]);
    },
  );

  it('clears the previews when the stream leaves Ingestion, and says so before the first image', async () => {
    const { view, services } = renderWith(<SnapshotPreviews streamId={STREAM} status="Ingestion" />, {
      [`GET ${BASE}/incoming`]: () => jsonResponse({ format: 'JPEG', quality: 'Low', interval: 5 }),
      [`GET ${BASE}/outgoing`]: () => jsonResponse({ format: 'JPEG', quality: 'Low', interval: 5 }),
      [`GET ${BASE}/incoming/image`]: () => errorResponse(404, 'Snapshot not found'),
      [`GET ${BASE}/outgoing/image`]: () => errorResponse(404, 'Snapshot not found'),
    });
    await waitFor(() => expect(screen.getAllByText('No snapshot yet')).toHaveLength(2));
    view.rerender(
      <AppProvider services={services}>
        <SnapshotPreviews streamId={STREAM} status="Idle" />
      </AppProvider>,
    );
    expect(screen.queryByText('No snapshot yet')).toBeNull();
    expect(view.container.textContent).toBe('');
    await waitFor(() =>
      expect(services.queryClient.getQueryCache().findAll({ queryKey: ['snapshots', 'image'] })).toHaveLength(0),
    );
  });
});
