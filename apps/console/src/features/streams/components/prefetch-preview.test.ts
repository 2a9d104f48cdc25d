import { jsonResponse } from '@streamcloud/api-client/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CURRENT_TOKEN_KEY } from '@/lib/auth-store';
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
  const nodeFetch = vi.fn<typeof fetch>(async () => new Response(null, { status: 204 }));
  beforeEach(() => vi.stubGlobal('fetch', nodeFetch));
  afterEach(() => {
    vi.unstubAllGlobals();
    nodeFetch.mockClear();
  });

  it("warms up the default WebRTC output's node with the preview credential", async () => {
    await prefetchPreview(services([hls, whep]), ID);
    expect(nodeFetch).toHaveBeenCalledOnce();
    const [url, init] = nodeFetch.mock.calls[0] ?? [];
    expect(url).toBe('http://node.example:4242/whep/out%2Bw/warm');
    expect(init).toMatchObject({ method: 'POST', headers: { authorization: `Bearer ${CREDENTIAL.token}` } });
  });

  it('warms up nothing when the preview would play HLS', async () => {
    await prefetchPreview(services([hls]), ID);
    expect(nodeFetch).not.toHaveBeenCalled();
  });
});
