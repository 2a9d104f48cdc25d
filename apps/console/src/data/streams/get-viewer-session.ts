import type { ApiClient } from '@streamcloud/api-client';
import { analyticsRoutes, playRoutes } from '@streamcloud/contract';

/**
 * GET /play/{id}: a viewer session credential for the preview's quality beacon, from the same public read the
 * embeddable player makes (the beacon is then marked `preview`, kept apart from viewers). Null when it fails:
 * the preview plays without a beacon.
 */
export const fetchViewerSession = (api: ApiClient, outputId: string): Promise<string | null> =>
  api.call(playRoutes.info, { params: { id: outputId } }).then(
    (info) => info.viewerSession,
    () => null,
  );

/** Where the preview's beacon goes: POST /play/{id}/beacons. */
export const beaconUrl = (api: ApiClient, outputId: string): string =>
  api.url(analyticsRoutes.beacon, { params: { id: outputId } });
