import { errorResponse, jsonResponse } from '@streamcloud/api-client/testing';
import type { RotatedAccessToken, StreamInput, StreamOutput } from '@streamcloud/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useStream } from '@/data/streams/get-stream';
import { renderPiece } from '@/test/render-piece';
import { streamInput, streamOutput, uuid } from '@/test/stream-fixtures';
import { TOKEN_ROTATION_TEXTS } from '../utils/token-rotation';
import { InputCard } from './input-card';
import { ViewersCard } from './viewers-card';

const ID = uuid(77);
const ROTATED: RotatedAccessToken = {
  accessToken: 'new-token-1',
  rotatedAt: '2026-11-28T10:00:00.000Z',
  previousValidUntil: '2026-11-28T10:30:00.000Z',
};

/** The Input card of the stream as the dashboard reads it (the shared read, so a rotation reads it again). */
function Input() {
  const stream = useStream(ID);
  return stream.data ? <InputCard stream={stream.data} ingress={undefined} /> : null;
}

function renderInput(rotate = (): Response => jsonResponse(ROTATED)) {
  let current: StreamInput = streamInput({ id: ID, access: 'Private', accessToken: 'old-token' });
  return renderPiece(<Input />, {
    [`GET /api/v1/inputs/${ID}`]: () => jsonResponse(current),
    [`POST /api/v1/inputs/${ID}/access-token/rotate`]: () => {
      const answer = rotate();
      if (answer.ok)
        current = { ...current, accessToken: ROTATED.accessToken, accessTokenRotatedAt: ROTATED.rotatedAt };
      return answer;
    },
  });
}

describe('rotating the ingest token', () => {
  it('asks the overlap, shows the new token once with Copy, then the card shows when it was rotated', async () => {
    const { user, mock } = renderInput();
    const card = within(await screen.findByRole('region', { name: 'Input' }));
    card.getByText(TOKEN_ROTATION_TEXTS.never);
    await user.click(card.getByRole('button', { name: 'Rotate token' }));
    const form = await screen.findByRole('form', { name: 'Rotate access token' });
    const overlap = within(form).getByLabelText('Overlap (minutes)') as HTMLInputElement;
    expect(overlap.value).toBe('10');
    await user.clear(overlap);
    await user.type(overlap, '30');
    await user.click(within(form).getByRole('button', { name: 'Rotate' }));

    const dialog = await screen.findByRole('dialog', { name: 'New access token' });
    expect((within(dialog).getByLabelText('New access token') as HTMLInputElement).value).toBe('new-token-1');
    within(dialog).getByRole('button', { name: /Copy/ });
    within(dialog).getByText(/still taken until 28\/11\/2026 10:30:00/);
    const posted = mock.requests.find((request) => request.method === 'POST');
    expect(posted?.body).toEqual({ overlapMinutes: 30 });

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await card.findByText('Last rotated 28/11/2026 10:00:00');
    expect(screen.queryByText('new-token-1', { selector: 'input' })).toBeNull();
  });

  it('names a bad overlap under its field and sends nothing; a refusal shows the server message as an alert', async () => {
    // The query client logs every failed request: this one's log is expected.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, mock } = renderInput(() =>
      errorResponse(409, 'This stream is Public: it has no access token to rotate'),
    );
    const card = within(await screen.findByRole('region', { name: 'Input' }));
    await user.click(card.getByRole('button', { name: 'Rotate token' }));
    const form = await screen.findByRole('form', { name: 'Rotate access token' });
    const overlap = within(form).getByLabelText('Overlap (minutes)');
    for (const [typed, message] of [
      ['abc', 'Overlap must be a number of minutes'],
      ['1441', 'Overlap must be at most 1440 minutes (24 hours)'],
    ]) {
      await user.clear(overlap);
      await user.type(overlap, typed as string);
      await user.click(within(form).getByRole('button', { name: 'Rotate' }));
      expect(await within(form).findByText(message as string)).toBeTruthy();
    }
    expect(mock.requests.filter((request) => request.method === 'POST')).toEqual([]);
    await user.clear(overlap);
    await user.type(overlap, '0');
    await user.click(within(form).getByRole('button', { name: 'Rotate' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'This stream is Public: it has no access token to rotate',
    );
    expect(logged).toHaveBeenCalledWith('Request failed', expect.anything());
    logged.mockRestore();
  });
});

describe("rotating an output's playback token", () => {
  it('rotates that output, shows the new token once and when it was rotated', async () => {
    let output: StreamOutput = streamOutput(ID, 1, {
      format: 'HLS',
      access: 'Private',
      viewer: { ipAddress: null, geoLocation: null, accessToken: 'old-viewer', accessTokenRotatedAt: null },
    });
    const { user, mock } = renderPiece(<ViewersCard streamId={ID} />, {
      // The viewers card reads the stream for the access a new viewer starts with.
      [`GET /api/v1/inputs/${ID}`]: () => jsonResponse(streamInput({ id: ID, access: 'Private' })),
      'GET /api/v1/outputs': () => jsonResponse([output], 200, { 'X-Total-Count': '1' }),
      [`POST /api/v1/outputs/${output.id}/access-token/rotate`]: () => {
        output = {
          ...output,
          viewer: { ...output.viewer, accessToken: 'new-token-1', accessTokenRotatedAt: ROTATED.rotatedAt },
        };
        return jsonResponse({ ...ROTATED, previousValidUntil: null });
      },
    });
    const item = within(await screen.findByRole('listitem', { name: `Viewer ${output.name}` }));
    item.getByText(TOKEN_ROTATION_TEXTS.never);
    await user.click(item.getByRole('button', { name: 'Rotate token' }));
    const form = await screen.findByRole('form', { name: 'Rotate playback token' });
    await user.click(within(form).getByRole('button', { name: 'Rotate' }));
    const dialog = await screen.findByRole('dialog', { name: 'New playback token' });
    expect((within(dialog).getByLabelText('New playback token') as HTMLInputElement).value).toBe('new-token-1');
    within(dialog).getByText(new RegExp(TOKEN_ROTATION_TEXTS.stoppedNow));
    expect(mock.requests.find((request) => request.method === 'POST')?.body).toEqual({ overlapMinutes: 10 });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await item.findByText('Last rotated 28/11/2026 10:00:00');
  });
});
