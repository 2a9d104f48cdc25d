import { emptyResponse, errorResponse, type Handler, jsonResponse } from '@streamcloud/api-client/testing';
import {
  FILE_NAME_TOOLTIP,
  MP4_TOOLTIP,
  RECORDING_PLAYBACK_MESSAGES,
  type Recording,
  type RecordingPlayback,
  type Storage,
  type TrackInfo,
} from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deliveriesResponse, streamInput, userAccount, webhookDelivery } from '@/test/fixtures';
import { renderAsUser } from '@/test/render-app';
import { renderPiece } from '@/test/render-piece';
import { RecordButton } from './record-button';
import { StreamRecordingsList } from './stream-recordings-list';

const STREAM_ID = '00000000-0000-4000-8000-000000000051';
const STORAGE: Storage = {
  id: '00000000-0000-4000-8000-00000000a001',
  name: 'Archive',
  type: 'AmazonS3',
  accessKeyId: 'AKID',
  secretAccessKeySet: true,
  regionName: null,
  bucket: 'media',
  path: 'live',
  endpoint: null,
  ownerId: userAccount.id,
  ownerUsername: 'alice',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};
const STREAM = streamInput(STREAM_ID);

let counter = 0;
function recording(changes: Partial<Recording> = {}): Recording {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    streamId: STREAM_ID,
    fileName: `rec-${counter}_{uuid}`,
    fileFormat: 'MKV',
    storageId: STORAGE.id,
    autostart: false,
    callbackUri: null,
    capture: {
      source: 'Incoming',
      tracks: [
        { type: 'Video', idx: null, codec: null, resolution: null, bitrate: null },
        { type: 'Audio', idx: null, codec: null, resolution: null, bitrate: null },
      ],
    },
    state: 'Recording',
    duration: 61,
    length: 1_500_000,
    uploaded: 0,
    objectKey: null,
    messages: [],
    stopRequested: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...changes,
  };
}

const LIST_URL = `GET /api/v1/recordings/stream/${STREAM_ID}`;

function renderDashboard(list: Recording[], handlers: Record<string, Handler> = {}) {
  return renderAsUser(`/streams/recording/${STREAM_ID}`, {
    [LIST_URL]: () => jsonResponse(list),
    'GET /api/v1/storages': () => jsonResponse([STORAGE]),
    [`GET /api/v1/inputs/${STREAM_ID}`]: () => jsonResponse(STREAM),
    ...handlers,
  });
}

const item = (fileName: string) => screen.getByText(fileName, { selector: 'code' }).closest('li') as HTMLElement;
const button = (scope: HTMLElement, name: string) => within(scope).getByRole('button', { name }) as HTMLButtonElement;
const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

describe('/streams/recording/{id}', () => {
  it('lists the autostarting recordings first, then the others', async () => {
    const plain = recording({ fileName: 'plain' });
    const auto = recording({ fileName: 'auto_{uuid}', autostart: true });
    renderDashboard([plain, auto]);
    const groups = await screen.findAllByRole('region');
    expect(groups.map((group) => group.getAttribute('aria-label'))).toEqual(['Autostarting', 'Other recordings']);
    within(groups[0] as HTMLElement).getByText('auto_{uuid}');
    within(groups[1] as HTMLElement).getByText('plain');
    within(item('plain')).getByText('Storage: Archive');
  });

  it('enables Stop only in Recording and Delete only in Completed or Error', async () => {
    const states = ['Recording', 'Uploading', 'Completed', 'Error'] as const;
    renderDashboard(states.map((state) => recording({ fileName: `file-${state}`, state })));
    await screen.findByText('file-Recording');
    const expected = {
      Recording: [true, false],
      Uploading: [false, false],
      Completed: [false, true],
      Error: [false, true],
    };
    for (const state of states) {
      const row = item(`file-${state}`);
      expect([!button(row, 'Stop').disabled, !button(row, 'Delete').disabled]).toEqual(expected[state]);
    }
  });

  it('stops once per session', async () => {
    const running = recording({ fileName: 'running' });
    const { user, mock } = renderDashboard([running], {
      [`PUT /api/v1/recordings/${running.id}/stop`]: () => jsonResponse({ ...running }),
    });
    await screen.findByText('running');
    await user.click(button(item('running'), 'Stop'));
    await waitFor(() => expect(button(item('running'), 'Stop').disabled).toBe(true));
    const stops = mock.requests.filter((request) => request.method === 'PUT');
    expect(stops).toHaveLength(1);
    expect(stops[0]?.body).toBeUndefined();
  });

  it("says 'Something wrong with recording stop' and 'Something wrong with recording delete' without a server message", async () => {
    const running = recording({ fileName: 'running' });
    const done = recording({ fileName: 'done', state: 'Completed' });
    const { user } = renderDashboard([running, done], {
      [`PUT /api/v1/recordings/${running.id}/stop`]: () => jsonResponse({}, 500),
      [`DELETE /api/v1/recordings/${done.id}`]: () => jsonResponse({}, 500),
    });
    await screen.findByText('running');
    await user.click(button(item('running'), 'Stop'));
    await waitFor(() => expect(alerts()).toContain('Something wrong with recording stop'));
    expect(button(item('running'), 'Stop').disabled).toBe(false);
    await user.click(button(item('done'), 'Delete'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Do you really want to delete recording? This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(alerts()).toContain('Something wrong with recording delete'));
  });

  it("shows the server's message when there is one, and deletes after confirming", async () => {
    const done = recording({ fileName: 'done', state: 'Error' });
    let deleted = false;
    const { user } = renderDashboard([done], {
      [`DELETE /api/v1/recordings/${done.id}`]: () => {
        deleted = true;
        return emptyResponse();
      },
    });
    await screen.findByText('done');
    await user.click(button(item('done'), 'Delete'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(deleted).toBe(true));
  });

  it('loads the info view: the recording, then its stream, then its storage', async () => {
    const one = recording({
      fileName: 'show_{year}',
      state: 'Completed',
      uploaded: 1_500_000,
      objectKey: 'live/show_2026.mkv',
      messages: [{ at: '2025-01-01T00:00:00.000Z', level: 'info', text: 'Created by alice' }],
    });
    const { user, mock } = renderDashboard([one], {
      [`GET /api/v1/recordings/${one.id}`]: () => jsonResponse(one),
      [`GET /api/v1/storages/${STORAGE.id}`]: () => jsonResponse(STORAGE),
      [`POST /api/v1/recordings/${one.id}/playback`]: () => jsonResponse(playbackOf(one.id, 'MKV')),
      'GET /api/v1/webhooks/deliveries': deliveriesResponse(
        webhookDelivery({ type: 'recording.started', resourceType: 'recording', resourceId: one.id }),
      ),
    });
    await screen.findByText('show_{year}');
    await user.click(button(item('show_{year}'), 'Info'));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Main stage');
    await within(dialog).findByText('Amazon S3: media/live');
    const order = mock.requests
      .map((request) => request.url.pathname)
      .filter((path) =>
        [`/api/v1/recordings/${one.id}`, `/api/v1/inputs/${STREAM_ID}`, `/api/v1/storages/${STORAGE.id}`].includes(
          path,
        ),
      );
    expect(order).toEqual([
      `/api/v1/recordings/${one.id}`,
      `/api/v1/inputs/${STREAM_ID}`,
      `/api/v1/storages/${STORAGE.id}`,
    ]);
    within(dialog).getByText('00:01:01');
    within(dialog).getByText('live/show_2026.mkv');
    within(dialog).getByText('1.5 MB in the storage');
    // Browsers cannot play MKV: no player, the reason, and the file to download.
    await within(dialog).findByText(RECORDING_PLAYBACK_MESSAGES.mkv);
    expect(within(dialog).queryByLabelText('Recording player')).toBeNull();
    expect(within(dialog).getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(
      `${window.location.origin}/api/v1/recordings/${one.id}/file?token=rf1.save.1.x`,
    );
    expect(within(dialog).getAllByText('1.5 MB')).toHaveLength(2);
    const callbacks = within(within(dialog).getByRole('region', { name: 'Callbacks' }));
    await callbacks.findByText('recording.started');
    expect(
      mock.requests.find((request) => request.url.pathname === '/api/v1/webhooks/deliveries')?.url.search,
    ).toContain(`resourceId=${one.id}`);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

function playbackOf(id: string, format: 'MP4' | 'MKV'): RecordingPlayback {
  return {
    url: `/api/v1/recordings/${id}/file?token=rf1.play.1.x`,
    downloadUrl: `/api/v1/recordings/${id}/file?token=rf1.save.1.x`,
    expiresAt: '2025-01-01T04:00:00.000Z',
    contentType: format === 'MP4' ? 'video/mp4' : 'video/x-matroska',
    playable: format === 'MP4',
    reason: format === 'MP4' ? null : RECORDING_PLAYBACK_MESSAGES.mkv,
  };
}

describe('recording playback in its info', () => {
  const openInfo = async (one: Recording, handlers: Record<string, Handler> = {}) => {
    const rendered = renderDashboard([one], {
      [`GET /api/v1/recordings/${one.id}`]: () => jsonResponse(one),
      [`GET /api/v1/storages/${STORAGE.id}`]: () => jsonResponse(STORAGE),
      'GET /api/v1/webhooks/deliveries': deliveriesResponse(),
      ...handlers,
    });
    await screen.findByText(one.fileName);
    await rendered.user.click(button(item(one.fileName), 'Info'));
    return { ...rendered, dialog: await screen.findByRole('dialog') };
  };

  it('plays a Completed MP4 recording from its link and offers it for download', async () => {
    const one = recording({ fileName: 'mp4', fileFormat: 'MP4', state: 'Completed', objectKey: 'live/mp4.mp4' });
    const { dialog } = await openInfo(one, {
      [`POST /api/v1/recordings/${one.id}/playback`]: () => jsonResponse(playbackOf(one.id, 'MP4')),
    });
    const player = (await within(dialog).findByLabelText('Recording player')) as HTMLVideoElement;
    expect(player.getAttribute('src')).toBe(
      `${window.location.origin}/api/v1/recordings/${one.id}/file?token=rf1.play.1.x`,
    );
    expect(player.controls).toBe(true);
    within(dialog).getByRole('link', { name: 'Download' });
  });

  it('says why a recording does not play yet, without asking for links', async () => {
    const one = recording({ fileName: 'uploading', fileFormat: 'MP4', state: 'Uploading', objectKey: 'live/u.mp4' });
    const { dialog, mock } = await openInfo(one);
    await within(dialog).findByText('The recording is still uploading: it plays once Completed');
    expect(mock.requests.some((request) => request.url.pathname.endsWith('/playback'))).toBe(false);
  });

  it('shows a refusal of the links as an alert', async () => {
    const one = recording({ fileName: 'refused', fileFormat: 'MP4', state: 'Completed', objectKey: 'live/r.mp4' });
    const { dialog } = await openInfo(one, {
      [`POST /api/v1/recordings/${one.id}/playback`]: () =>
        errorResponse(409, 'The recording ended in Error: it has no file to play'),
    });
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The recording ended in Error: it has no file to play',
    );
  });
});

describe('recording form', () => {
  const openCreate = async (handlers: Record<string, Handler> = {}) => {
    const rendered = renderDashboard([], handlers);
    await screen.findByText('No recordings yet.');
    await rendered.user.click(screen.getByRole('button', { name: 'Add recording' }));
    const form = await screen.findByRole('form', { name: 'Recording' });
    return { ...rendered, form: within(form) };
  };

  it('starts with the uuid template, MKV, no autostart and the preset All; submit disabled until valid', async () => {
    const { form } = await openCreate();
    expect((form.getByLabelText('Stream ID') as HTMLInputElement).value).toBe(STREAM_ID);
    expect((form.getByLabelText('File name') as HTMLInputElement).value).toBe('{uuid}');
    expect((form.getByLabelText('File format') as HTMLSelectElement).value).toBe('MKV');
    expect((form.getByLabelText('Autostart') as HTMLInputElement).checked).toBe(false);
    expect(form.getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('true');
    expect(form.getByRole('button', { name: 'Best resolution' }).getAttribute('aria-pressed')).toBe('false');
    expect(form.getAllByText('All')).toHaveLength(3);
    await waitFor(() =>
      expect((form.getByRole('button', { name: 'Create' }) as HTMLButtonElement).disabled).toBe(true),
    );
    expect(form.getByRole('button', { name: 'UUID' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('toggles placeholders, shows the live example and the counter against 254', async () => {
    const { form, user } = await openCreate();
    const name = form.getByLabelText('File name') as HTMLInputElement;
    await user.clear(name);
    await user.type(name, 'live');
    await user.click(form.getByRole('button', { name: 'Stream name' }));
    expect(name.value).toBe('live_{streamName}');
    await waitFor(() => expect(form.getByTestId('file-name-example').textContent).toBe(`live_in+${STREAM_ID}`));
    form.getByText(`${`live_in+${STREAM_ID}`.length} / 254`);
    await user.click(form.getByRole('button', { name: 'Stream name' }));
    expect(name.value).toBe('live');
    await user.click(form.getByLabelText('Autostart'));
    expect(form.getByTestId('file-name-example').textContent).toMatch(/^live_[0-9a-f-]{36}$/);
    await user.click(form.getByLabelText('Autostart'));
    await user.clear(name);
    await user.click(name);
    await user.paste('x'.repeat(255));
    form.getByText('255 / 254');
    form.getByText('Longer than 254 characters: the name will be truncated and a uuid appended.');
    expect(form.getByTestId('file-name-example').textContent).toHaveLength(254);
    await user.type(name, 'y');
    await form.findByText('File name must be at most 255 characters');
    await user.clear(name);
    await form.findByText('File name is required');
  });

  it('shows the tooltips of section 5', async () => {
    const { form, user } = await openCreate();
    await user.hover(form.getByRole('button', { name: 'About file names' }));
    expect((await screen.findByRole('tooltip')).textContent).toBe(FILE_NAME_TOOLTIP);
    expect(FILE_NAME_TOOLTIP).toContain('gets a uuid appended');
    expect(FILE_NAME_TOOLTIP).toContain('250 characters');
    await user.unhover(form.getByRole('button', { name: 'About file names' }));
    await user.hover(form.getByRole('button', { name: 'About file formats' }));
    await waitFor(() => expect(screen.getByRole('tooltip').textContent).toBe(MP4_TOOLTIP));
  });

  it('creates with the chosen storage; an empty callback URI is left out', async () => {
    let body: unknown;
    const { form, user } = await openCreate({
      'POST /api/v1/recordings': (request) => {
        body = request.body;
        return jsonResponse(recording(), 201);
      },
    });
    await user.selectOptions(form.getByLabelText('Storage'), 'Archive (media)');
    await waitFor(() =>
      expect((form.getByRole('button', { name: 'Create' }) as HTMLButtonElement).disabled).toBe(false),
    );
    await user.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Recording' })).toBeNull());
    expect(body).toEqual({
      streamId: STREAM_ID,
      fileName: '{uuid}',
      fileFormat: 'MKV',
      storageId: STORAGE.id,
      autostart: false,
      capture: {
        source: 'Incoming',
        tracks: [
          { type: 'Video', idx: null, codec: null, resolution: null, bitrate: null },
          { type: 'Audio', idx: null, codec: null, resolution: null, bitrate: null },
        ],
      },
    });
  });

  it("says 'Something wrong with recording creation' when saving fails without a message", async () => {
    const { form, user } = await openCreate({ 'POST /api/v1/recordings': () => jsonResponse({}, 500) });
    await user.selectOptions(form.getByLabelText('Storage'), 'Archive (media)');
    await user.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(alerts()).toContain('Something wrong with recording creation'));
    screen.getByRole('form', { name: 'Recording' });
  });

  it('applies the presets: Best resolution, and Current tracks from the reported tracks', async () => {
    const tracks: TrackInfo[] = [
      { idx: 0, type: 'Video', codec: 'H264', width: 1280, height: 720, bps: 2e6, channels: null, rate: null },
      { idx: 1, type: 'Audio', codec: 'AAC', width: null, height: null, bps: 128e3, channels: 2, rate: 48000 },
    ];
    const { form, user, mock } = await openCreate({
      [`GET /api/v1/info/stream/${STREAM_ID}/incoming`]: () => jsonResponse(tracks),
      [`GET /api/v1/info/stream/${STREAM_ID}/outgoing`]: () => jsonResponse([]),
    });
    await user.click(form.getByRole('button', { name: 'Best resolution' }));
    form.getByText('best resolution');
    await user.click(form.getByRole('button', { name: 'Current tracks' }));
    await form.findByText('track #0');
    form.getByText('track #1');
    expect(form.getByRole('button', { name: 'Current tracks' }).getAttribute('aria-pressed')).toBe('true');
    await user.selectOptions(form.getByLabelText('Source'), 'Outgoing');
    await form.findByText('The stream has no current tracks for this source.');
    expect(mock.requests.some((request) => request.url.pathname.endsWith('/outgoing'))).toBe(true);
  });

  it('edits a selector in the track selector modal with the section 5 rules; MP4 drops disallowed codecs', async () => {
    const { form, user } = await openCreate();
    await user.click(form.getByRole('button', { name: 'Edit track 2' }));
    let selector = within(await screen.findByRole('form', { name: 'Track selector' }));
    expect(selector.getByTestId('selector-description').textContent).toBe('All');
    await user.selectOptions(selector.getByLabelText('Codec'), 'Opus');
    await user.selectOptions(selector.getByLabelText('Bitrate condition'), 'Greater');
    selector.getByText('Bitrate must be above 0 for an Approximate, Greater or Less condition');
    expect((selector.getByRole('button', { name: 'Save track' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(selector.getByLabelText('Bitrate (kbps)'), '96');
    expect(selector.getByTestId('selector-description').textContent).toBe('Opus, over 96 kbps');
    await user.click(selector.getByRole('button', { name: 'Save track' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Track selector' })).toBeNull());
    form.getByText('Opus, over 96 kbps');
    expect(form.getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('false');

    await user.click(form.getByRole('button', { name: 'Add track' }));
    selector = within(await screen.findByRole('form', { name: 'Track selector' }));
    await user.selectOptions(selector.getByLabelText('Resolution condition'), 'Exact');
    selector.getByText('Width is required for an Exact or Approximate resolution');
    await user.type(selector.getByLabelText('Width'), '1280');
    await user.type(selector.getByLabelText('Height'), '720');
    await user.click(selector.getByRole('button', { name: 'Save track' }));
    await form.findByText('1280x720');

    await user.selectOptions(form.getByLabelText('File format'), 'MP4');
    expect(form.queryByText('Opus, over 96 kbps')).toBeNull();
    form.getByText(`1 track selector was dropped: ${MP4_TOOLTIP}`);
    await user.click(form.getByRole('button', { name: 'Add track' }));
    selector = within(await screen.findByRole('form', { name: 'Track selector' }));
    await user.selectOptions(selector.getByLabelText('Type'), 'Audio');
    const codecs = Array.from((selector.getByLabelText('Codec') as HTMLSelectElement).options).map(
      (option) => option.value,
    );
    expect(codecs).toEqual(['', 'AAC', 'MP3']);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Track selector' })).toBeNull());
    screen.getByRole('form', { name: 'Recording' });
  });

  it('edits with no preset selected, the format and autostart locked, and sends only what may change', async () => {
    const existing = recording({ fileName: 'show_{uuid}', autostart: true, callbackUri: 'https://hooks.example/r' });
    let body: unknown;
    const { user } = renderDashboard([existing], {
      [`PUT /api/v1/recordings/${existing.id}`]: (request) => {
        body = request.body;
        return jsonResponse(existing);
      },
    });
    await screen.findByText('show_{uuid}');
    await user.click(button(item('show_{uuid}'), 'Edit'));
    const form = within(await screen.findByRole('form', { name: 'Recording' }));
    for (const preset of ['All', 'Best resolution', 'Current tracks']) {
      expect(form.getByRole('button', { name: preset }).getAttribute('aria-pressed')).toBe('false');
    }
    expect((form.getByLabelText('File format') as HTMLSelectElement).disabled).toBe(true);
    expect((form.getByLabelText('Autostart') as HTMLInputElement).disabled).toBe(true);
    expect((form.getByLabelText('Autostart') as HTMLInputElement).checked).toBe(true);
    await user.clear(form.getByLabelText('Callback URI'));
    await user.click(form.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(body).toBeDefined());
    expect(body).toEqual({ fileName: 'show_{uuid}', storageId: STORAGE.id, capture: existing.capture });
  });

  it("says 'Something wrong with recording updating' when an update fails without a message", async () => {
    const existing = recording({ fileName: 'edit-me' });
    const { user } = renderDashboard([existing], {
      [`PUT /api/v1/recordings/${existing.id}`]: () => jsonResponse({}, 500),
    });
    await screen.findByText('edit-me');
    await user.click(button(item('edit-me'), 'Edit'));
    const form = within(await screen.findByRole('form', { name: 'Recording' }));
    await user.click(form.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(alerts()).toContain('Something wrong with recording updating'));
  });
});

describe('pieces for the stream dashboard', () => {
  it("RecordButton opens the form; a failure reads 'Something wrong with recording start'", async () => {
    const { user } = renderPiece(<RecordButton streamId={STREAM_ID} enabled />, {
      'GET /api/v1/storages': () => jsonResponse([STORAGE]),
      [`GET /api/v1/inputs/${STREAM_ID}`]: () => jsonResponse(STREAM),
      'POST /api/v1/recordings': () => errorResponse(500, ''),
    });
    await user.click(screen.getByRole('button', { name: 'Record' }));
    const form = within(await screen.findByRole('form', { name: 'Recording' }));
    await user.selectOptions(form.getByLabelText('Storage'), 'Archive (media)');
    await user.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(alerts()).toContain('Something wrong with recording start'));
  });

  it('RecordButton is disabled when the dashboard says so', () => {
    renderPiece(<RecordButton streamId={STREAM_ID} enabled={false} />, {});
    expect((screen.getByRole('button', { name: 'Record' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('StreamRecordingsList lists the recordings, autostarting first, with a link to the dashboard', async () => {
    renderPiece(<StreamRecordingsList streamId={STREAM_ID} />, {
      [LIST_URL]: () =>
        jsonResponse([recording({ fileName: 'later' }), recording({ fileName: 'first', autostart: true })]),
    });
    await screen.findByText('first');
    const names = screen.getAllByRole('listitem').map((row) => within(row).getByText(/later|first/).textContent);
    expect(names).toEqual(['first', 'later']);
    expect(screen.getByRole('link', { name: 'Manage recordings' }).getAttribute('href')).toBe(
      `/streams/recording/${STREAM_ID}`,
    );
  });
});
