import { jsonResponse } from '@streamcloud/api-client/testing';
import { type StatusMessage, WEBRTC_PLAYBACK_FAILED } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePeerConnection } from '@/test/fake-peer-connection';
import { renderPiece } from '@/test/render-piece';
import { PREVIEW_CREDENTIAL, previewOutputs, streamInput, streamOutput, uuid } from '@/test/stream-fixtures';
import { PreviewCard } from './preview-card';

const ID = uuid(1);
const CREDENTIAL = PREVIEW_CREDENTIAL;
const { whep, hls } = previewOutputs(ID);
const rtmp = streamOutput(ID, 3);

const render = (outputs: Array<{ id: string; format: string }>, statusMessages: StatusMessage[] = []) =>
  renderPiece(<PreviewCard streamId={ID} />, {
    [`GET /api/v1/inputs/${ID}`]: () => jsonResponse(streamInput({ id: ID, status: 'Ingestion', statusMessages })),
    'GET /api/v1/outputs': () => jsonResponse(outputs, 200, { 'X-Total-Count': String(outputs.length) }),
    [`POST /api/v1/inputs/${ID}/preview`]: () => jsonResponse(CREDENTIAL),
    // The public read the preview's beacon takes its viewer session from.
    ...Object.fromEntries(
      outputs.map((output) => [
        `GET /api/v1/play/${output.id}`,
        () =>
          jsonResponse({
            outputId: output.id,
            format: output.format,
            streamStatus: 'Ingestion',
            access: 'Public',
            hlsLatency: null,
            playback: {},
            poster: null,
            viewerSession: `vs1.${output.id}`,
          }),
      ]),
    ),
  });

describe('Preview card', () => {
  const nodeFetch = vi.fn<typeof fetch>();
  const sendBeacon = vi.fn<Navigator['sendBeacon']>(() => true);
  beforeEach(() => {
    sendBeacon.mockClear();
    vi.spyOn(navigator, 'sendBeacon').mockImplementation(sendBeacon);
    vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
    vi.stubGlobal('fetch', nodeFetch);
    nodeFetch.mockResolvedValue(
      new Response(JSON.stringify({ message: 'invalid or expired preview credential' }), { status: 401 }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    nodeFetch.mockReset();
  });

  it('plays the WebRTC output by default with the preview credential, and offers HLS but not RTMP', async () => {
    const { mock } = render([rtmp, hls, whep]);
    const output = await screen.findByRole('combobox', { name: 'Output' });
    expect((output as HTMLSelectElement).value).toBe(whep.id);
    expect(
      within(output)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([`WebRTC (WHEP) · ${whep.name}`, `HLS · ${hls.name}`]);
    expect(
      mock.requests.some((request) => request.method === 'POST' && request.url.pathname.endsWith('/preview')),
    ).toBe(true);
    await waitFor(() => expect(nodeFetch).toHaveBeenCalled());
    const [url, init] = nodeFetch.mock.calls[0] ?? [];
    expect(url).toBe(whep.connection?.signallingUri);
    expect(new Headers(init?.headers).get('authorization')).toBe(`Bearer ${CREDENTIAL.token}`);
    expect(init?.body).toBe('v=0 offer');
    // The node's refusal, in its words.
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The preview could not start: invalid or expired preview credential',
    );
    expect(screen.getByRole('button', { name: 'Unmute' })).toBeInstanceOf(HTMLButtonElement);
    expect(screen.getByRole('button', { name: 'Fullscreen' })).toBeInstanceOf(HTMLButtonElement);
    // Its quality beacon, marked as a preview, reports the failure when the page is left.
    await waitFor(() =>
      expect(mock.requests.some((request) => request.url.pathname.endsWith(`/play/${whep.id}`))).toBe(true),
    );
    dispatchEvent(new Event('pagehide'));
    const [beaconUrl, body] = sendBeacon.mock.calls[0] ?? [];
    expect(beaconUrl).toMatch(new RegExp(`/api/v1/play/${whep.id}/beacons$`));
    expect(JSON.parse(await (body as Blob).text())).toMatchObject({
      session: `vs1.${whep.id}`,
      player: 'preview',
      events: [{ type: 'error', kind: 'access', message: 'invalid or expired preview credential' }],
    });
  });

  it('shows the statistics overlay on demand', async () => {
    const { user } = render([whep]);
    await user.click(await screen.findByRole('button', { name: 'Show stats' }));
    const overlay = screen.getByLabelText('Playback statistics');
    expect(within(overlay).getByText('Round trip')).toBeInstanceOf(HTMLElement);
    await user.click(screen.getByRole('button', { name: 'Hide stats' }));
    expect(screen.queryByLabelText('Playback statistics')).toBeNull();
  });

  it("shows the node's reason when the stream cannot play over WebRTC, and not over HLS", async () => {
    const at = '2026-11-28T14:00:00.000Z';
    const reason = `${WEBRTC_PLAYBACK_FAILED}: encoding for WebRTC failed: Unknown encoder 'libvpx'`;
    const { user } = render(
      [whep, hls],
      [
        { at, level: 'error', text: reason },
        { at, level: 'info', text: 'Push started over RTMP from 127.0.0.1' },
      ],
    );
    expect(await screen.findByText(reason)).toHaveProperty('role', 'alert');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Output' }), hls.id);
    await waitFor(() => expect(screen.queryByText(reason)).toBeNull());
  });

  it('asks for a WebRTC or HLS viewer when the stream has none', async () => {
    render([rtmp]);
    expect(await screen.findByText('Add a WebRTC or HLS viewer to preview this stream.')).toBeInstanceOf(HTMLElement);
  });
});
