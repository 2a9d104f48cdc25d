import type { StreamInput } from '@streamcloud/contract';

export interface DashboardActions {
  billing: boolean;
  stop: boolean;
  transcoding: boolean;
  snapshots: boolean;
  recordings: boolean;
  relays: boolean;
  gslb: boolean;
  fallback: boolean;
  update: boolean;
  delete: boolean;
  metrics: boolean;
  /** The header's recording button. */
  record: boolean;
}

/** Section 4's enable rules of the dashboard's buttons; nothing is enabled before the stream is loaded. */
export function dashboardActions(stream: Pick<StreamInput, 'status' | 'outputMode'> | undefined): DashboardActions {
  if (!stream) {
    return {
      billing: false,
      stop: false,
      transcoding: false,
      snapshots: false,
      recordings: false,
      relays: false,
      gslb: false,
      fallback: false,
      update: false,
      delete: false,
      metrics: false,
      record: false,
    };
  }
  const { status } = stream;
  const error = status === 'Error';
  const ingestion = status === 'Ingestion';
  return {
    billing: true,
    // Stop also ends a fallback playing (docs/decisions.md, "Fallbacks on the media node").
    stop: ingestion || status === 'Pending' || status === 'Fallback',
    transcoding: !error && stream.outputMode === 'AdjustableTranscode' && !ingestion,
    snapshots: !error && !ingestion,
    recordings: !error,
    relays: !error,
    gslb: !error,
    // The fallbacks issue makes this a working link to the fallback dashboard (see the report).
    fallback: true,
    update: status === 'Idle' || error,
    delete: true,
    metrics: true,
    record: ingestion && !error,
  };
}
