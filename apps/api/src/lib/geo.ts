import type { GeoPoint } from '@streamcloud/contract';

/** A place stored as two nullable columns: a point when both are known. */
export const geoPoint = (latitude: number | null, longitude: number | null): GeoPoint | null =>
  latitude !== null && longitude !== null ? { latitude, longitude } : null;
