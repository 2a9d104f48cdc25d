import { errorResponse, jsonResponse } from '@streamcloud/api-client/testing';
import { VOD_MESSAGES, type Vod } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { playHls } from '@/media/hls-playback';
import { renderPiece } from '@/test/render-piece';
import { PREVIEW_CREDENTIAL, streamOutput, uuid } from '@/test/stream-fixtures';
import { VOD_TEXTS } from '../utils/messages';
import { VodsCard } from './vods-card';

// The player itself (hls.js on a real node) is the media and e2e suites' part: here, what the card asks it to play.
vi.mock('@/media/hls-playback', () => ({ playHls: vi.fn() }));

const ID = uuid(1);
const PLAYLIST = `http://node.example:8080/hls/out%2B${uuid(8001)}/vod/index.m3u8`;
const rewind = streamOutput(ID, 1, { format: 'HLS', hlsLatency: 'Low', dvrWindowMinutes: 5 });
const standard = streamOutput(ID, 2, { format: 'HLS' });

function vod(n: number, changes: Partial<Vod> = {}): Vod {
  return {
    id: uuid(100 + n),
    streamId: ID,
    state: 'Available',
    startedAt: '2026-11-29T08:00:00.000Z',
    endedAt: '2026-11-29T08:01:30.000Z',
    duration: 90,
    size: 1_000_000,
    playlistUri: PLAYLIST,
    outputId: rewind.id,
    recordings: [],
    createdAt: '2026-11-29T08:01:32.000Z',
    ...changes,
  };
}

const render = (vods: Vod[] | (() => Response), outputs = [rewind]) =>
  renderPiece(<VodsCard streamId={ID} />, {
    'GET /api/v1/vods': typeof vods === 'function' ? vods : () => jsonResponse(vods),
    'GET /api/v1/outputs': () => jsonResponse(outputs, 200, { 'X-Total-Count': String(outputs.length) }),
    [`POST /api/v1/inputs/${ID}/preview`]: () => jsonResponse(PREVIEW_CREDENTIAL),
  });

const card = () => screen.getByRole('region', { name: VOD_TEXTS.title });

describe('Past broadcasts card', () => {
  beforeEach(() => {
    vi.mocked(playHls).mockReset();
    vi.mocked(playHls).mockResolvedValue({ close: vi.fn(), renditions: () => [], pick: () => {}, stats: vi.fn() });
  });

  it('lists each session with its start, end and duration; an evicted one says it is no longer on the node', async () => {
    const recording = { id: uuid(300), fileName: 'show-2026-11-29.mp4', fileFormat: 'MP4' as const };
    render([
      vod(1),
      vod(2, { state: 'Evicted', playlistUri: null, outputId: null, duration: 3725, recordings: [recording] }),
    ]);
    const [available, evicted] = await screen.findAllByRole('listitem');
    expect(available?.textContent).toContain(`${VOD_TEXTS.started} 29/11/2026 08:00:00`);
    expect(available?.textContent).toContain(`${VOD_TEXTS.ended} 29/11/2026 08:01:30`);
    expect(available?.textContent).toContain(`${VOD_TEXTS.duration} 00:01:30`);
    expect(within(available as HTMLElement).getByRole('button', { name: VOD_TEXTS.watch })).toBeTruthy();
    expect(evicted?.textContent).toContain('01:02:05');
    expect(evicted?.textContent).toContain(VOD_MESSAGES.evicted);
    // The session is still in the account's bucket: the card says where.
    expect(evicted?.textContent).toContain(`${VOD_TEXTS.recorded} show-2026-11-29.mp4`);
    expect(available?.textContent).not.toContain(VOD_TEXTS.recorded);
    expect(within(evicted as HTMLElement).queryByRole('button')).toBeNull();
    expect(card().textContent).not.toContain(VOD_MESSAGES.noDvr);
  });

  it("plays a session's VOD playlist with the preview credential, and stops it on Close player", async () => {
    const { user } = render([vod(1)]);
    await user.click(await screen.findByRole('button', { name: VOD_TEXTS.watch }));
    const video = await screen.findByLabelText(VOD_TEXTS.player);
    await waitFor(() =>
      expect(playHls).toHaveBeenCalledWith(PLAYLIST, PREVIEW_CREDENTIAL.token, video, expect.any(Function)),
    );
    const playback = await vi.mocked(playHls).mock.results[0]?.value;
    await user.click(screen.getByRole('button', { name: VOD_TEXTS.closePlayer }));
    expect(screen.queryByLabelText(VOD_TEXTS.player)).toBeNull();
    expect(playback.close).toHaveBeenCalled();
  });

  it("shows the player's failure as an alert", async () => {
    vi.mocked(playHls).mockImplementation(async (_url, _token, _video, onFailure) => {
      onFailure?.('The stream has no VOD on this node');
      return { close: vi.fn(), renditions: () => [], pick: () => {}, stats: vi.fn() };
    });
    const { user } = render([vod(1)]);
    await user.click(await screen.findByRole('button', { name: VOD_TEXTS.watch }));
    expect((await screen.findByRole('alert')).textContent).toBe('The stream has no VOD on this node');
  });

  it('says how to keep past broadcasts when no Low latency output has a DVR window', async () => {
    render([], [standard, streamOutput(ID, 3, { format: 'HLS', hlsLatency: 'Low' })]);
    await waitFor(() => expect(card().textContent).toContain(VOD_MESSAGES.noDvr));
    expect(card().textContent).toContain(VOD_TEXTS.none);
  });

  it('says when the list cannot be read', async () => {
    render(() => errorResponse(500, 'Database unavailable'));
    expect((await screen.findByRole('alert')).textContent).toContain('Database unavailable');
  });
});
