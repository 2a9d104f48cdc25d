/** How often the analytics are asked again while shown: beacons come every 10 s. */
export const ANALYTICS_REFRESH_MS = 15_000;
