import { errorResponse, type Handler, jsonResponse, type RecordedRequest } from '@streamcloud/api-client/testing';
import { DEFAULT_ADJUSTABLE_TRACKS, type StreamInput, type TranscodeConfig } from '@streamcloud/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { streamInput } from '@/test/fixtures';
import { pngFile } from '@/test/images';
import { renderAsUser } from '@/test/render-app';
import { SCTE35_HINT } from './settings-card';

const ID = '00000000-0000-4000-8000-00000000b001';
const URL_OUTPUT = `/api/v1/inputs/${ID}/output`;

const STREAM = streamInput(ID, { status: 'Idle' });

const CONFIG: TranscodeConfig = {
  version: 2,
  passthrough: false,
  scte35: { mode: 'None' },
  epochTimeEncoder: { enabled: false },
  overlay: null,
  tracks: [DEFAULT_ADJUSTABLE_TRACKS[0]!, DEFAULT_ADJUSTABLE_TRACKS[4]!],
};

function renderEditor(handlers: Record<string, Handler> = {}, stream: Partial<StreamInput> = {}, config = CONFIG) {
  return renderAsUser(`/streams/transcode/${ID}`, {
    [`GET /api/v1/inputs/${ID}`]: () => jsonResponse({ ...STREAM, ...stream }),
    [`GET ${URL_OUTPUT}`]: () => jsonResponse(config),
    ...handlers,
  });
}

const saveButton = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
const region = (name: string) => within(screen.getByRole('region', { name }));
const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);
const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label) as HTMLInputElement;

async function loaded() {
  await screen.findByRole('heading', { level: 1, name: 'Transcode editor' });
  await screen.findByText('Main stage');
}

describe('/streams/transcode/{id}', () => {
  it('shows the loaded configuration; Save is enabled only when it differs from it', async () => {
    renderEditor();
    await loaded();
    expect(saveButton().disabled).toBe(true);
    expect(region('Video tracks').getByRole('row', { name: 'Video track 1' }).textContent).toContain('1280x720');
    expect(region('Audio tracks').getByRole('row', { name: 'Audio track 1' }).textContent).toContain('48000 Hz');
    const mode = screen.getByLabelText('Ad-marker mode') as HTMLSelectElement;
    // What the nodes really do with the mode is said next to it.
    expect(screen.getByRole('combobox', { name: 'Ad-marker mode', description: SCTE35_HINT })).toBe(mode);
    fireEvent.change(mode, { target: { value: 'SpliceMedia' } });
    expect(saveButton().disabled).toBe(false);
    fireEvent.change(mode, { target: { value: 'None' } });
    expect(saveButton().disabled).toBe(true);
  });

  it('builds a ladder from presets and saves it; the answer becomes the loaded configuration', async () => {
    let body: unknown;
    const { user } = renderEditor({
      [`PUT ${URL_OUTPUT}`]: (request: RecordedRequest) => {
        body = request.body;
        return jsonResponse({ ...CONFIG, ...(request.body as object) });
      },
    });
    await loaded();
    await user.click(region('Video tracks').getByRole('button', { name: 'Add video preset' }));
    await user.click(await screen.findByRole('button', { name: 'VP8 360p' }));
    await user.click(region('Audio tracks').getByRole('button', { name: 'Add audio preset' }));
    await user.click(await screen.findByRole('button', { name: 'Opus 48 kHz' }));
    await user.click(screen.getByLabelText('Time encoder'));
    await user.click(saveButton());
    await waitFor(() => expect(alerts()).toContain('Transcoding saved'));
    expect(body).toEqual({
      version: 2,
      passthrough: false,
      scte35: { mode: 'None' },
      epochTimeEncoder: { enabled: true },
      overlay: null,
      tracks: [
        CONFIG.tracks[0],
        CONFIG.tracks[1],
        { type: 'VP8', width: 640, height: 360, framerate: 30, settings: { bitrate: 800, keyMaxDist: 60 } },
        { type: 'Opus', rate: 48000, channels: 2, settings: { bitrate: 128 } },
      ],
    });
    expect(saveButton().disabled).toBe(true);
  });

  it('adds a video track with the defaults and checks each video rule', async () => {
    const { user } = renderEditor();
    await loaded();
    await user.click(region('Video tracks').getByRole('button', { name: 'Add video track' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add video track' });
    expect((field(dialog, 'Codec') as unknown as HTMLSelectElement).value).toBe('H264');
    expect(field(dialog, 'Bitrate (kbps)').value).toBe('2000');
    expect((field(dialog, 'Speed preset') as unknown as HTMLSelectElement).value).toBe('superfast');
    expect((field(dialog, 'Tune') as unknown as HTMLSelectElement).value).toBe('zerolatency');
    expect(field(dialog, 'Key interval').value).toBe('0');
    const save = within(dialog).getByRole('button', { name: 'Save track' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));

    const check = async (label: string, value: string, message: string) => {
      await user.clear(field(dialog, label));
      if (value) await user.type(field(dialog, label), value);
      await within(dialog).findByText(message);
      expect(save.disabled).toBe(true);
    };
    await check('Width', '1280', 'Width and height must both be set or both be empty');
    await check('Height', '-1', 'Height must be at least 0');
    await user.clear(field(dialog, 'Height'));
    await user.type(field(dialog, 'Height'), '720');
    await check('Frame rate', '0', 'Frame rate must be at least 1');
    await user.clear(field(dialog, 'Frame rate'));
    await user.type(field(dialog, 'Frame rate'), '25');
    await check('Bitrate (kbps)', '99', 'Bitrate must be at least 100');
    await user.clear(field(dialog, 'Bitrate (kbps)'));
    await user.type(field(dialog, 'Bitrate (kbps)'), '1500');
    await check('Key interval', '1', 'Key interval must be at least 2 (or 0 to let the encoder choose)');
    await user.clear(field(dialog, 'Key interval'));
    await user.type(field(dialog, 'Key interval'), '50');
    await user.selectOptions(field(dialog, 'Codec'), 'VP8');
    expect(field(dialog, 'Key distance').value).toBe('0');
    await check('Key distance', '1', 'Key distance must be at least 2 (or 0 to let the encoder choose)');
    await user.clear(field(dialog, 'Key distance'));
    await user.type(field(dialog, 'Key distance'), '90');
    await waitFor(() => expect(save.disabled).toBe(false));
    await user.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = region('Video tracks').getByRole('row', { name: 'Video track 2' });
    expect(row.textContent).toContain('VP8');
    expect(row.textContent).toContain('1280x720');
    expect(row.textContent).toContain('1500 kbps');
    expect(row.textContent).toContain('key distance 90');
  });

  it('edits and removes audio tracks with each audio rule', async () => {
    const { user } = renderEditor();
    await loaded();
    await user.click(region('Audio tracks').getByRole('button', { name: 'Edit audio track 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit audio track' });
    const save = within(dialog).getByRole('button', { name: 'Save track' }) as HTMLButtonElement;
    const check = async (label: string, value: string, message: string) => {
      await user.clear(field(dialog, label));
      await user.type(field(dialog, label), value);
      await within(dialog).findByText(message);
      expect(save.disabled).toBe(true);
    };
    await check('Rate (Hz)', '799', 'Rate must be at least 800');
    await check('Rate (Hz)', '192001', 'Rate must be at most 192000');
    await user.clear(field(dialog, 'Rate (Hz)'));
    await user.type(field(dialog, 'Rate (Hz)'), '44100');
    await check('Channels', '0', 'Channels must be at least 1');
    await check('Channels', '3', 'Channels must be at most 2');
    await user.clear(field(dialog, 'Channels'));
    await user.type(field(dialog, 'Channels'), '1');
    await check('Bitrate (kbps)', '9', 'Bitrate must be at least 10');
    await user.selectOptions(field(dialog, 'Codec'), 'MP3');
    await waitFor(() => expect(save.disabled).toBe(false));
    await check('Bitrate (kbps)', '0', 'Bitrate must be at least 1');
    await user.clear(field(dialog, 'Bitrate (kbps)'));
    await user.type(field(dialog, 'Bitrate (kbps)'), '96');
    await user.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(region('Audio tracks').getByRole('row', { name: 'Audio track 1' }).textContent).toContain('MP3');
    await user.click(region('Audio tracks').getByRole('button', { name: 'Remove audio track 1' }));
    region('Audio tracks').getByText('No audio tracks.');
    expect(saveButton().disabled).toBe(false);
  });

  it('asks before leaving with unsaved changes; Cancel stays, Ok leaves', async () => {
    const { user, location, router } = renderEditor();
    await loaded();
    await user.click(region('Video tracks').getByRole('button', { name: 'Remove video track 1' }));
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    await user.click(screen.getByRole('link', { name: 'Back' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(dialog.textContent).toContain(
      'Are you sure you want to exit without saving? Any unsaved changes will be lost.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(location()).toBe(`/streams/transcode/${ID}`);
    // Any in-app navigation asks (the dashboard itself is another feature's, so go elsewhere here).
    await act(() => router.navigate('/accounts'));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Ok' }),
    );
    await waitFor(() => expect(location()).toBe('/accounts'));
  });

  it('leaves without asking when nothing changed', async () => {
    const { location, router } = renderEditor();
    await loaded();
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe(`/streams/view/${ID}`);
    await act(() => router.navigate('/accounts'));
    await waitFor(() => expect(location()).toBe('/accounts'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('alerts only a 400 with a message on save; other failures are only logged', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let answer = errorResponse(400, 'Invalid request: body.tracks.0.settings.bitrate: Bitrate must be at least 100');
    const { user } = renderEditor({ [`PUT ${URL_OUTPUT}`]: () => answer });
    await loaded();
    await user.click(region('Video tracks').getByRole('button', { name: 'Remove video track 1' }));
    await user.click(saveButton());
    await waitFor(() =>
      expect(alerts()).toEqual(['Invalid request: body.tracks.0.settings.bitrate: Bitrate must be at least 100']),
    );
    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    answer = errorResponse(409, 'The transcoding cannot be changed while the stream is in Ingestion');
    await user.click(saveButton());
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith('Saving the transcode configuration failed', expect.anything()),
    );
    answer = new Response('', { status: 400 });
    await user.click(saveButton());
    await waitFor(() =>
      expect(
        consoleError.mock.calls.filter(([text]) => text === 'Saving the transcode configuration failed'),
      ).toHaveLength(2),
    );
    expect(alerts()).toEqual([]);
    expect(saveButton().disabled).toBe(false);
  });

  it.each([
    [{ status: 'Ingestion' as const }, 'The transcoding cannot be changed while the stream is in Ingestion.'],
    [{ outputMode: 'Passthrough' as const }, 'This stream is passthrough: it has no transcoding ladder.'],
  ])('cannot change the stream when %o', async (stream, notice) => {
    renderEditor({}, stream);
    await loaded();
    screen.getByText(notice);
    expect(
      (region('Video tracks').getByRole('button', { name: 'Add video track' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(saveButton().disabled).toBe(true);
  });

  it('takes an overlay by its bytes, with its offsets, preview and removal', async () => {
    let body: { overlay: TranscodeConfig['overlay'] } | undefined;
    const { user } = renderEditor({
      [`PUT ${URL_OUTPUT}`]: (request) => {
        body = request.body as typeof body;
        return jsonResponse({ ...CONFIG, ...(request.body as object) });
      },
    });
    await loaded();
    const upload = screen.getByLabelText('Overlay image') as HTMLInputElement;
    await user.upload(upload, pngFile(361, 361));
    await waitFor(() => expect(alerts()).toEqual(['Maximum dimensions allowed 360x360 px']));
    await user.upload(upload, pngFile(10, 10, 1_000_001));
    await waitFor(() => expect(alerts()).toContain('Maximum size allowed is 1 Mb'));
    await user.upload(upload, new File(['GIF89a........................'], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(alerts()).toContain('Only Images are allowed ( JPG | PNG )'));
    expect(screen.queryByRole('img', { name: 'Overlay preview' })).toBeNull();

    await user.upload(upload, pngFile(360, 100));
    const preview = (await screen.findByRole('img', { name: 'Overlay preview' })) as HTMLImageElement;
    expect(preview.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await user.clear(screen.getByLabelText('Offset X'));
    await user.type(screen.getByLabelText('Offset X'), '-3');
    expect(screen.getAllByText('Offset X must be at least 0').length).toBeGreaterThan(0);
    expect(saveButton().disabled).toBe(true);
    await user.clear(screen.getByLabelText('Offset X'));
    await user.type(screen.getByLabelText('Offset X'), '12');
    await user.clear(screen.getByLabelText('Offset Y'));
    await user.type(screen.getByLabelText('Offset Y'), '8');
    await user.click(saveButton());
    await waitFor(() => expect(body?.overlay).toMatchObject({ offsetX: 12, offsetY: 8 }));
    await user.click(screen.getByRole('button', { name: 'Remove overlay' }));
    expect(screen.queryByRole('img', { name: 'Overlay preview' })).toBeNull();
    expect(saveButton().disabled).toBe(false);
  });

  it('says so when the stream does not exist', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderEditor({
      [`GET ${URL_OUTPUT}`]: () => errorResponse(404, 'Stream not found'),
      [`GET /api/v1/inputs/${ID}`]: () => errorResponse(404, 'Stream not found'),
    });
    await screen.findByText('This stream does not exist.');
  });
});
