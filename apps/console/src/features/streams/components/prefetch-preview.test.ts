import { jsonResponse } from '@streamcloud/api-client/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CURRENT_TOKEN_KEY } from '@/lib/auth-store';
import { playWhep } from '@/media/whep-playback';
import { FakePeerConnection } from '@/test/fake-peer-connection';
import { MemoryStorage } from '@/test/memory-storage';
import { PREVIEW_CREDENTIAL, previewOutputs, uuid } from '@/test/stream-fixtures';
import { createTestServices } from '@/test/test-services';
import { prefetchPreview } from './prefetch-preview';

const ID = uuid(7);
const CREDENTIAL = PREVIEW_CREDENTIAL;
const { whep, hls } = previewOutputs(ID);

function services(outputs: unknown[]) {
  const storage = new MemoryStorage();
  storage.setItem(CURRENT_TOKEN_KEY, 'token-1');
  return createTestServices(
    {
      'GET /api/v1/outputs': () => jsonResponse(outputs, 200, { 'X-Total-Count': String(outputs.length) }),
      [`POST /api/v1/inputs/${ID}/preview`]: () => jsonResponse(CREDENTIAL),
    },
    storage,
  ).services;
}

describe('prefetchPreview', () => {
  const nodeFetch = vi.fn<typeof fetch>(
    async () => new Response('v=0 answer', { status: 201, headers: { location: '/whep/out%2Bw/session' } }),
  );
  beforeEach(() => {
    vi.stubGlobal('fetch', nodeFetch);
    vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
    vi.stubGlobal('MediaStream', class {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    nodeFetch.mockClear();
  });

  it("offers to the default WebRTC output's node with the preview credential, for the player to take", async () => {
    await prefetchPreview(services([hls, whep]), ID);
    await vi.waitFor(() => expect(nodeFetch).toHaveBeenCalledOnce());
    const [url, init] = nodeFetch.mock.calls[0] ?? [];
    expect(url).toBe(whep.connection?.signallingUri);
    expect(init).toMatchObject({ method: 'POST', body: 'v=0 offer' });
    expect(new Headers(init?.headers).get('authorization')).toBe(`Bearer ${CREDENTIAL.token}`);
    // The player plays that connection: no second offer.
    const playback = await playWhep(whep.connection?.signallingUri ?? '', CREDENTIAL.token, {} as HTMLVideoElement);
    expect(nodeFetch).toHaveBeenCalledOnce();
    playback.close();
  });

  it('offers nothing and closes the peer connection made ahead when the preview would play HLS', async () => {
    const made: FakePeerConnection[] = [];
    vi.stubGlobal(
      'RTCPeerConnection',
      class extends FakePeerConnection {
        constructor() {
          super();
          made.push(this);
        }
      },
    );
    await prefetchPreview(services([hls]), ID);
    await vi.waitFor(() => expect(made.map((pc) => pc.closed)).toEqual([true]));
    expect(nodeFetch).not.toHaveBeenCalled();
  });
});
