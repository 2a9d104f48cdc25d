import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePeerConnection } from '@/test/fake-peer-connection';
import { renderPiece } from '@/test/render-piece';
import { MEDIA_ERRORS } from '../utils/studio-media';
import { SCREEN_ENDED, StudioDialog, type StudioDialogProps } from './studio-dialog';

const INGEST = 'http://node.example:4242/whip/in%2Bs';

function fakeTrack(kind: 'video' | 'audio', deviceId: string) {
  const listeners: Record<string, () => void> = {};
  return {
    kind,
    deviceId,
    stop: vi.fn(),
    getSettings: () => ({ deviceId }),
    addEventListener: (type: string, listener: () => void) => {
      listeners[type] = listener;
    },
    /** The browser ends the track on its own (its "Stop sharing" bar). */
    end: () => listeners.ended?.(),
  };
}

type FakeTrack = ReturnType<typeof fakeTrack>;

/** A stream of fake tracks, still a MediaStream for the <video>'s srcObject. */
class FakeMediaStream extends MediaStream {
  constructor(readonly tracks: FakeTrack[]) {
    super();
  }
  override getTracks() {
    return this.tracks as unknown as MediaStreamTrack[];
  }
  override getVideoTracks() {
    return this.getTracks().filter((track) => track.kind === 'video');
  }
  override getAudioTracks() {
    return this.getTracks().filter((track) => track.kind === 'audio');
  }
}

/** A camera and a microphone as getUserMedia hands them out. */
const fakeMedia = () => new FakeMediaStream([fakeTrack('video', 'cam-1'), fakeTrack('audio', 'mic-1')]);

/** The browser's RTCPeerConnection at the unit's edge: the last one made is `peer`. */
let peer: FakePublisher;
class FakePublisher extends FakePeerConnection {
  iceConnectionState = 'new';
  transceivers: { track: { kind: string }; init: RTCRtpTransceiverInit }[] = [];
  listeners: Record<string, () => void> = {};
  parameters = { encodings: [{ maxBitrate: 0 }] };
  setParameters = vi.fn(async (parameters: { encodings: { maxBitrate: number }[] }) => {
    this.parameters = parameters;
  });
  replaceTrack = vi.fn(async (_track: { kind: string } | null) => {});
  constructor() {
    super();
    peer = this;
  }
  override addTransceiver(track: { kind: string }, init: RTCRtpTransceiverInit) {
    this.transceivers.push({ track, init });
  }
  getSenders() {
    return this.transceivers.map(({ track }) => ({
      track,
      getParameters: () => this.parameters,
      setParameters: this.setParameters,
      replaceTrack: this.replaceTrack,
    }));
  }
  override addEventListener(type: string, listener: () => void) {
    this.listeners[type] = listener;
  }
  /** ICE moves on, as the browser would report it. */
  ice(state: string) {
    this.iceConnectionState = state;
    this.listeners.iceconnectionstatechange?.();
  }
}

const stream = (overrides: Partial<StudioDialogProps['stream']> = {}) =>
  ({
    status: 'Idle',
    connection: { signallingUri: INGEST },
    access: 'Private',
    accessToken: 'push-token',
    ...overrides,
  }) as StudioDialogProps['stream'];

describe('Studio', () => {
  const getUserMedia = vi.fn();
  const getDisplayMedia = vi.fn();
  const nodeFetch = vi.fn<typeof fetch>();
  let media: FakeMediaStream;

  beforeEach(() => {
    media = fakeMedia();
    getUserMedia.mockResolvedValue(media);
    vi.stubGlobal('navigator', {
      ...navigator,
      mediaDevices: {
        getUserMedia,
        getDisplayMedia,
        enumerateDevices: async () => [
          { kind: 'videoinput', deviceId: 'cam-1', label: 'Front camera' },
          { kind: 'videoinput', deviceId: 'cam-2', label: 'Document camera' },
          { kind: 'audioinput', deviceId: 'mic-1', label: 'Headset' },
        ],
      },
    });
    vi.stubGlobal('RTCPeerConnection', FakePublisher);
    vi.stubGlobal('fetch', nodeFetch);
    nodeFetch.mockImplementation(async (_url, init) =>
      init?.method === 'DELETE'
        ? new Response(null, { status: 200 })
        : new Response('v=0 answer', { status: 201, headers: { location: '/whip/in%2Bs/session-1' } }),
    );
  });
  afterEach(() => {
    getUserMedia.mockReset();
    getDisplayMedia.mockReset();
    nodeFetch.mockReset();
  });

  it('opens the camera at 720p, lists the devices, and changes resolution before going live', async () => {
    const { user } = renderPiece(<StudioDialog show stream={stream()} onHide={() => {}} />);
    const camera = await screen.findByRole('option', { name: 'Front camera' });
    expect((camera as HTMLOptionElement).selected).toBe(true);
    expect(screen.getByRole('option', { name: 'Document camera' })).toBeInstanceOf(HTMLOptionElement);
    expect(getUserMedia).toHaveBeenCalledWith({
      video: { width: { ideal: 1280 }, height: { ideal: 720 } },
      audio: {},
    });
    expect(screen.getByRole('meter', { name: 'Microphone level' })).toBeInstanceOf(HTMLMeterElement);
    await user.selectOptions(screen.getByLabelText('Camera'), 'Document camera');
    await user.selectOptions(screen.getByLabelText('Resolution'), '360p');
    await waitFor(() =>
      expect(getUserMedia).toHaveBeenLastCalledWith({
        video: { deviceId: { exact: 'cam-2' }, width: { ideal: 640 }, height: { ideal: 360 } },
        audio: {},
      }),
    );
    // The devices opened before are released.
    expect(media.tracks[0]?.stop).toHaveBeenCalled();
  });

  it('goes live over WHIP with the token, reports ICE, caps the bitrate, and Stop ends the session', async () => {
    const onLive = vi.fn();
    const { user } = renderPiece(
      <StudioDialog show stream={stream({ status: 'Ingestion' })} onHide={() => {}} onLive={onLive} />,
    );
    expect(screen.getByRole('status', { name: 'Stream status' }).textContent).toBe('Stream: Ingestion');
    const goLive = await screen.findByRole('button', { name: 'Go live' });
    await waitFor(() => expect((goLive as HTMLButtonElement).disabled).toBe(false));
    await user.click(goLive);
    const publishing = screen.getByRole('status', { name: 'Publishing status' });
    await waitFor(() => expect(nodeFetch).toHaveBeenCalled());
    const [url, init] = nodeFetch.mock.calls[0] ?? [];
    expect(url).toBe(INGEST);
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer push-token');
    expect(init?.body).toBe('v=0 offer');
    expect(peer.transceivers.map(({ track, init }) => [track.kind, init.direction, init.sendEncodings])).toEqual([
      ['video', 'sendonly', [{ maxBitrate: 1_500_000 }]],
      ['audio', 'sendonly', undefined],
    ]);
    expect(publishing.textContent).toBe('Studio: Connecting');

    expect(onLive).toHaveBeenLastCalledWith(false);
    peer.ice('connected');
    await waitFor(() => expect(publishing.textContent).toBe('Studio: Live'));
    // The dashboard reads the stream often until it turns live (told by an effect, after the status renders).
    await waitFor(() => expect(onLive).toHaveBeenLastCalledWith(true));
    peer.ice('disconnected');
    await waitFor(() => expect(publishing.textContent).toBe('Studio: Reconnecting'));
    peer.ice('connected');
    await user.selectOptions(screen.getByLabelText('Video bitrate'), '500 kbps');
    expect(peer.setParameters).toHaveBeenCalledWith({ encodings: [{ maxBitrate: 500_000 }] });

    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(nodeFetch).toHaveBeenCalledTimes(2));
    const [resource, end] = nodeFetch.mock.calls[1] ?? [];
    expect(resource).toBe('http://node.example:4242/whip/in%2Bs/session-1');
    expect(end?.method).toBe('DELETE');
    expect(new Headers(end?.headers).get('authorization')).toBe('Bearer push-token');
    expect(peer.closed).toBe(true);
    for (const track of media.tracks) expect(track.stop).toHaveBeenCalled();
    expect(publishing.textContent).toBe('Studio: Off air');
    expect(onLive).toHaveBeenLastCalledWith(false);
    expect(screen.getByRole('button', { name: 'Turn on camera' })).toBeInstanceOf(HTMLButtonElement);
  });

  it('sends no token for a public stream and shows the node’s refusal', async () => {
    nodeFetch.mockResolvedValue(new Response(JSON.stringify({ message: 'stream is not active' }), { status: 403 }));
    const { user } = renderPiece(<StudioDialog show stream={stream({ access: 'Public' })} onHide={() => {}} />);
    const goLive = await screen.findByRole('button', { name: 'Go live' });
    await waitFor(() => expect((goLive as HTMLButtonElement).disabled).toBe(false));
    await user.click(goLive);
    expect((await screen.findByRole('alert')).textContent).toBe('Going live failed: stream is not active');
    expect(new Headers(nodeFetch.mock.calls[0]?.[1]?.headers).has('authorization')).toBe(false);
    await waitFor(() => expect(peer.closed).toBe(true));
    expect(screen.getByRole('status', { name: 'Publishing status' }).textContent).toBe('Studio: Off air');
  });

  it('says when the browser denies the camera, and tries again on demand', async () => {
    getUserMedia.mockRejectedValueOnce(new DOMException('Permission denied', 'NotAllowedError'));
    const { user } = renderPiece(<StudioDialog show stream={stream()} onHide={() => {}} />);
    expect((await screen.findByRole('alert')).textContent).toBe(MEDIA_ERRORS.denied);
    expect(screen.queryByRole('button', { name: 'Go live' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(await screen.findByRole('button', { name: 'Go live' })).toBeInstanceOf(HTMLButtonElement);
  });

  it('says when there is no camera or microphone', async () => {
    getUserMedia.mockRejectedValue(new DOMException('Requested device not found', 'NotFoundError'));
    renderPiece(<StudioDialog show stream={stream()} onHide={() => {}} />);
    expect((await screen.findByRole('alert')).textContent).toBe(MEDIA_ERRORS.missing);
  });

  it('shares a screen with the microphone, and says when sharing is refused', async () => {
    getDisplayMedia.mockResolvedValueOnce(new FakeMediaStream([fakeTrack('video', 'screen')]));
    vi.stubGlobal('MediaStream', FakeMediaStream);
    const { user } = renderPiece(<StudioDialog show stream={stream()} onHide={() => {}} />);
    await user.click(await screen.findByRole('button', { name: 'Share screen' }));
    await waitFor(() =>
      expect(getDisplayMedia).toHaveBeenCalledWith({
        video: { width: { ideal: 1280 }, height: { ideal: 720 } },
        audio: false,
      }),
    );
    expect(await screen.findByText('Sharing a screen.')).toBeInstanceOf(HTMLElement);
    expect(getUserMedia).toHaveBeenLastCalledWith({ audio: {} });

    getDisplayMedia.mockRejectedValueOnce(new DOMException('Permission denied', 'NotAllowedError'));
    await user.selectOptions(screen.getByLabelText('Resolution'), '1080p');
    expect((await screen.findByRole('alert')).textContent).toBe(MEDIA_ERRORS.screenDenied);
    await user.click(screen.getByRole('button', { name: 'Use camera' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  /** Opens the studio and goes live (ICE connected); answers the publishing status. */
  async function goLive() {
    const rendered = renderPiece(<StudioDialog show stream={stream({ status: 'Ingestion' })} onHide={() => {}} />);
    const button = await screen.findByRole('button', { name: 'Go live' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    await rendered.user.click(button);
    await waitFor(() => expect(nodeFetch).toHaveBeenCalledOnce());
    peer.ice('connected');
    const publishing = screen.getByRole('status', { name: 'Publishing status' });
    await waitFor(() => expect(publishing.textContent).toBe('Studio: Live'));
    return { ...rendered, publishing };
  }

  it('switches camera and microphone while live with replaceTrack, in the same WHIP session', async () => {
    const { user, publishing } = await goLive();
    const next = new FakeMediaStream([fakeTrack('video', 'cam-2'), fakeTrack('audio', 'mic-1')]);
    getUserMedia.mockResolvedValueOnce(next);
    await user.selectOptions(screen.getByLabelText('Camera'), 'Document camera');
    await waitFor(() => expect(peer.replaceTrack).toHaveBeenCalledTimes(2));
    expect(getUserMedia).toHaveBeenLastCalledWith({
      video: { deviceId: { exact: 'cam-2' }, width: { ideal: 1280 }, height: { ideal: 720 } },
      audio: {},
    });
    expect(peer.replaceTrack.mock.calls.map(([track]) => track)).toEqual(next.tracks);
    // No new offer: the node's session goes on, and so does the stream.
    expect(nodeFetch).toHaveBeenCalledOnce();
    expect(peer.closed).toBe(false);
    expect(publishing.textContent).toBe('Studio: Live');
    for (const track of media.tracks) expect(track.stop).toHaveBeenCalled();

    getUserMedia.mockResolvedValueOnce(fakeMedia());
    await user.selectOptions(screen.getByLabelText('Resolution'), '1080p');
    await waitFor(() => expect(peer.replaceTrack).toHaveBeenCalledTimes(4));
    expect(nodeFetch).toHaveBeenCalledOnce();

    // Closing the tab ends the WHIP session at once (a DELETE that outlives the page).
    window.dispatchEvent(new Event('pagehide'));
    expect(nodeFetch.mock.calls[1]?.[1]).toMatchObject({ method: 'DELETE', keepalive: true });
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(nodeFetch).toHaveBeenCalledTimes(3));
  });

  it('goes back to the camera, saying so, when the browser ends the screen sharing while live', async () => {
    vi.stubGlobal('MediaStream', FakeMediaStream);
    const shared = fakeTrack('video', 'screen');
    getDisplayMedia.mockResolvedValueOnce(new FakeMediaStream([shared]));
    const { user, publishing } = await goLive();
    await user.click(screen.getByRole('button', { name: 'Share screen' }));
    await waitFor(() => expect(peer.replaceTrack).toHaveBeenCalledWith(shared));
    const camera = fakeMedia();
    getUserMedia.mockResolvedValueOnce(camera);

    shared.end();
    expect((await screen.findByText(SCREEN_ENDED)).getAttribute('role')).toBe('status');
    await waitFor(() => expect(peer.replaceTrack).toHaveBeenLastCalledWith(camera.tracks[1]));
    expect(peer.replaceTrack).toHaveBeenCalledWith(camera.tracks[0]);
    expect(screen.getByRole('button', { name: 'Share screen' })).toBeInstanceOf(HTMLButtonElement);
    expect(nodeFetch).toHaveBeenCalledOnce();
    expect(publishing.textContent).toBe('Studio: Live');
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(nodeFetch).toHaveBeenCalledTimes(2));
  });
});
