import { type GeoPoint, REGION_ORDER, type RegionCode } from '@streamcloud/contract';
import { geoPoint } from '../../lib/geo.js';

export interface CandidateNode {
  id: string;
  regionCode: string | null;
  geo: GeoPoint | null;
  /** Streams already assigned: the tie-breaker. */
  streamCount: number;
}

/** A node row as placement weighs it (the repository's CandidateNodeRow has these columns). */
export interface PlacedNodeRow {
  id: string;
  location_code: string | null;
  latitude: number | null;
  longitude: number | null;
  stream_count: number;
}

export const candidateOf = (node: PlacedNodeRow, streamCount = node.stream_count): CandidateNode => ({
  id: node.id,
  regionCode: node.location_code,
  geo: geoPoint(node.latitude, node.longitude),
  streamCount,
});

export interface StreamerPlace {
  geo: GeoPoint | null;
  region: RegionCode | null;
}

const EARTH_RADIUS_KM = 6371;

export function distanceKm(a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

const regionRank = (code: string | null) => {
  const rank = REGION_ORDER.indexOf((code ?? '') as RegionCode);
  return rank === -1 ? REGION_ORDER.length : rank;
};

/**
 * Picks the node for a new stream among the enabled and opened ones: the nearest by distance when the
 * streamer's place and the node's are known; else a node in the streamer's region; else by the region
 * order EU, NA, SA, AS, AF, AN, OC, then others. Ties go to the node with fewer streams.
 */
export function chooseNode(candidates: CandidateNode[], streamer: StreamerPlace): CandidateNode | null {
  if (candidates.length === 0) return null;
  const score = (node: CandidateNode): [number, number, number] => {
    const distance = streamer.geo && node.geo ? distanceKm(streamer.geo, node.geo) : Number.POSITIVE_INFINITY;
    const sameRegion = streamer.region !== null && node.regionCode?.toUpperCase() === streamer.region ? 0 : 1;
    return [distance, sameRegion * 100 + regionRank(node.regionCode?.toUpperCase() ?? null), node.streamCount];
  };
  return [...candidates].sort((a, b) => {
    const [da, ra, ca] = score(a);
    const [db, rb, cb] = score(b);
    if (da !== db) return da - db;
    if (ra !== rb) return ra - rb;
    return ca - cb;
  })[0] as CandidateNode;
}
