import { errorResponse, jsonResponse } from '@streamcloud/api-client/testing';
import { CLIP_MESSAGES, type Clip } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPiece } from '@/test/render-piece';
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
      [`POST /api/v1/clips/${ready.id}/playback`]: () =>
        jsonResponse({
          url: `/api/v1/clips/${ready.id}/file?token=p`,
          downloadUrl: `/api/v1/clips/${ready.id}/file?token=s`,
          expiresAt: '2026-01-01T11:00:00.000Z',
        }),
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
