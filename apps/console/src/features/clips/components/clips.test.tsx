import { errorResponse, jsonResponse } from '@streamcloud/api-client/testing';
import { CLIP_MESSAGES, type Clip } from '@streamcloud/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPiece } from '@/test/render-piece';
import { storyboardVtt } from '@/test/storyboard-fixtures';
import { CLIP_TEXTS } from '../utils/messages';
import { ClipButton } from './clip-dialog';
import { StreamClipsList } from './stream-clips-list';

const STREAM_ID = '00000000-0000-4000-8000-000000000051';
const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

let counter = 0;
function clip(changes: Partial<Clip> = {}): Clip {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    streamId: STREAM_ID,
    recordingId: null,
    storageId: null,
    caption: `Clip ${counter}`,
    from: '2026-01-01T10:00:00.000Z',
    to: '2026-01-01T10:00:30.000Z',
    state: 'Ready',
    message: null,
    duration: 30.4,
    size: 123456,
    objectKey: 'live/clips/x.mp4',
    callbackUri: null,
    createdAt: '2026-01-01T10:00:31.000Z',
    finishedAt: '2026-01-01T10:00:32.000Z',
    ...changes,
  };
}

describe('the clip dialog', () => {
  /** Opens the dialog on a player whose position moves by 30 s between the two marks. */
  async function openDialog(positions: (Date | null)[], handlers = {}) {
    const position = vi.fn(() => positions.shift() ?? null);
    const rendered = renderPiece(<ClipButton streamId={STREAM_ID} position={position} />, {
      'GET /api/v1/storages': () => jsonResponse([]),
      ...handlers,
    });
    await rendered.user.click(screen.getByRole('button', { name: CLIP_TEXTS.createButton }));
    const dialog = await screen.findByRole('dialog', { name: CLIP_TEXTS.dialogTitle });
    return { ...rendered, dialog };
  }

  it('marks in and out on the player and asks for the clip', async () => {
    const made = clip({ state: 'Pending' });
    const { dialog, user, mock } = await openDialog(
      [new Date('2026-01-01T10:00:00.000Z'), new Date('2026-01-01T10:00:30.000Z')],
      { 'POST /api/v1/clips': () => jsonResponse(made, 201) },
    );
    expect(dialog.textContent).toContain(CLIP_MESSAGES.keyframeNote);
    await user.click(within(dialog).getByRole('button', { name: CLIP_TEXTS.markIn }));
    await user.click(within(dialog).getByRole('button', { name: CLIP_TEXTS.markOut }));
    expect(within(dialog).getByLabelText(CLIP_TEXTS.inLabel)).toHaveProperty('value', '2026-01-01T10:00:00.000Z');
    expect(within(dialog).getByLabelText(CLIP_TEXTS.outLabel)).toHaveProperty('value', '2026-01-01T10:00:30.000Z');
    await user.type(within(dialog).getByLabelText(CLIP_TEXTS.captionLabel), 'The goal');
    await user.click(within(dialog).getByRole('button', { name: CLIP_TEXTS.createButton }));
    await waitFor(() => expect(alerts()).toContain(CLIP_TEXTS.created));
    const posted = mock.requests.find((request) => request.method === 'POST');
    expect(posted?.body).toEqual({
      streamId: STREAM_ID,
      from: '2026-01-01T10:00:00.000Z',
      to: '2026-01-01T10:00:30.000Z',
      caption: 'The goal',
    });
  });

  it('says why before sending anything when out is not after in, under the Out field', async () => {
    const same = new Date('2026-01-01T10:00:00.000Z');
    const { dialog, user, mock } = await openDialog([same, same]);
    await user.click(within(dialog).getByRole('button', { name: CLIP_TEXTS.markIn }));
    await user.click(within(dialog).getByRole('button', { name: CLIP_TEXTS.markOut }));
    await user.click(within(dialog).getByRole('button', { name: CLIP_TEXTS.createButton }));
    const out = within(dialog).getByLabelText(CLIP_TEXTS.outLabel);
    expect(out.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(out.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      CLIP_MESSAGES.toAfterFrom,
    );
    expect(mock.requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it("shows the server's field refusal under its field, and its message otherwise", async () => {
    let answer = errorResponse(400, 'Invalid request', {
      code: 'VALIDATION',
      errors: [{ path: 'body.storageId', message: CLIP_MESSAGES.noStorage }],
    });
    const { dialog, user } = await openDialog(
      [new Date('2026-01-01T10:00:00.000Z'), new Date('2026-01-01T10:00:10.000Z')],
      { 'POST /api/v1/clips': () => answer },
    );
    await user.click(within(dialog).getByRole('button', { name: CLIP_TEXTS.markIn }));
    await user.click(within(dialog).getByRole('button', { name: CLIP_TEXTS.markOut }));
    await user.click(within(dialog).getByRole('button', { name: CLIP_TEXTS.createButton }));
    const storage = within(dialog).getByLabelText(CLIP_TEXTS.storageLabel);
    await waitFor(() =>
      expect(document.getElementById(storage.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        CLIP_MESSAGES.noStorage,
      ),
    );
    answer = errorResponse(409, CLIP_MESSAGES.noNode);
    await user.click(within(dialog).getByRole('button', { name: CLIP_TEXTS.createButton }));
    await waitFor(() => expect(alerts()).toContain(CLIP_MESSAGES.noNode));
  });

  it('says so when the player has no position to mark (WebRTC, nothing playing)', async () => {
    const { dialog, user } = await openDialog([null]);
    await user.click(within(dialog).getByRole('button', { name: CLIP_TEXTS.markIn }));
    expect(within(dialog).getByRole('alert').textContent).toBe(CLIP_TEXTS.noPosition);
  });
});

/** The playback links of a clip as the API answers them: paths on its origin, with a play (p) or save (s) token. */
const links = (id: string) => ({
  url: `/api/v1/clips/${id}/file?token=p`,
  downloadUrl: `/api/v1/clips/${id}/file?token=s`,
  storyboardUrl: `/api/v1/clips/${id}/storyboard/storyboard.vtt?token=p`,
  expiresAt: '2026-01-01T11:00:00.000Z',
});

describe("the stream's clips", () => {
  it('lists each clip with its state, caption and length; Download opens a fresh link, Delete asks first', async () => {
    const ready = clip({ caption: 'The goal' });
    const failed = clip({
      caption: 'Too old',
      state: 'Error',
      message: 'from is no longer in the window',
      duration: null,
    });
    const cutting = clip({ caption: 'Coming', state: 'Processing', duration: null });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { user, mock } = renderPiece(<StreamClipsList streamId={STREAM_ID} />, {
      'GET /api/v1/clips': () => jsonResponse([cutting, ready, failed]),
      [`POST /api/v1/clips/${ready.id}/playback`]: () => jsonResponse(links(ready.id)),
      [`DELETE /api/v1/clips/${failed.id}`]: () => new Response(null, { status: 204 }),
    });
    const list = await screen.findByRole('list', { name: 'Clips' });
    const item = (name: string) => within(list).getByRole('listitem', { name });
    expect(item('The goal').textContent).toContain('Ready');
    expect(item('The goal').textContent).toContain('30.4 s');
    expect(item('Too old').textContent).toContain('from is no longer in the window');
    expect(within(item('Coming')).getByRole('button', { name: 'Download' })).toHaveProperty('disabled', true);
    expect(within(item('Coming')).getByRole('button', { name: 'Delete' })).toHaveProperty('disabled', true);

    await user.click(within(item('The goal')).getByRole('button', { name: 'Download' }));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith(expect.stringMatching(/\/file\?token=s$/), '_blank', 'noopener'),
    );
    open.mockRestore();

    await user.click(within(item('Too old')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(CLIP_TEXTS.deleteQuestion);
    await user.click(within(dialog).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(mock.requests.some((request) => request.method === 'DELETE')).toBe(true));
  });
});

describe("a clip's player", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('plays a Ready clip by its link, with its storyboard thumbnails on the seek bar; Close player ends it', async () => {
    const ready = clip({ caption: 'The goal' });
    const base = `${window.location.origin}/api/v1/clips/${ready.id}`;
    const vtt = storyboardVtt([2, 30.4], { query: 'token=p' });
    // The storyboard is read by the browser's fetch, as the player's seek bar does for any playback.
    const read = vi.fn(async (url: string) => Object.assign(new Response(vtt, { status: 200 }), { url }));
    vi.stubGlobal('fetch', read);
    const { user } = renderPiece(<StreamClipsList streamId={STREAM_ID} />, {
      'GET /api/v1/clips': () => jsonResponse([ready]),
      [`POST /api/v1/clips/${ready.id}/playback`]: () => jsonResponse(links(ready.id)),
    });
    const item = await screen.findByRole('listitem', { name: 'The goal' });
    await user.click(within(item).getByRole('button', { name: 'Play' }));
    const video = (await screen.findByLabelText(CLIP_TEXTS.player)) as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe(`${base}/file?token=p`);
    // The clip's file, seekable over its 30.4 s once its header is read.
    Object.defineProperty(video, 'seekable', { value: { length: 1, start: () => 0, end: () => 30.4 } });
    Object.defineProperty(video, 'currentTime', { value: 0, writable: true });
    const seek = await screen.findByRole('slider', { name: 'Seek' });
    expect(read).toHaveBeenCalledWith(`${base}/storyboard/storyboard.vtt?token=p`, expect.anything());
    seek.getBoundingClientRect = () => ({ left: 0, width: 304, top: 0, height: 10 }) as DOMRect;
    // Pointing at 20 s: the second tile (from 2 s to the end), its sheet by the same token.
    fireEvent.pointerMove(seek, { clientX: 200 });
    const thumbnail = await screen.findByRole('img', { name: /^Thumbnail at 0:20$/ });
    expect(thumbnail.getAttribute('src')).toBe(`${base}/storyboard/storyboard-0.jpg?token=p`);
    expect(thumbnail.style.left).toBe('-160px');
    fireEvent.change(seek, { target: { value: '12' } });
    expect(video.currentTime).toBe(12);

    await user.click(screen.getByRole('button', { name: CLIP_TEXTS.closePlayer }));
    expect(screen.queryByLabelText(CLIP_TEXTS.player)).toBeNull();
  });
});
