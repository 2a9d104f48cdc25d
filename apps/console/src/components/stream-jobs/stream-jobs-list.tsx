import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Loading } from '@/components/ui/loading';
import { type StreamJob, splitByAutostart } from './stream-job';
import type { StreamJobsFeature } from './stream-jobs-feature';

export interface StreamJobsListProps<T extends StreamJob> {
  streamId: string;
  feature: StreamJobsFeature<T>;
  /** One job's line, before the autostart mark. */
  renderLine: (job: T) => ReactNode;
}

/**
 * A stream's jobs in the dashboard's 'Recordings and Relays' card: autostarting first, re-polled with the
 * same query as the feature's page, which it links to.
 */
export function StreamJobsList<T extends StreamJob>({ streamId, feature, renderLine }: StreamJobsListProps<T>) {
  const { noun, texts } = feature;
  const jobs = feature.useJobs(streamId);
  const { autostarting, others } = splitByAutostart(jobs.data ?? []);
  const items = [...autostarting, ...others];
  const titleId = `stream-${texts.title.toLowerCase()}-${streamId}`;
  return (
    <section aria-labelledby={titleId} className="mb-3">
      <div className="d-flex justify-content-between align-items-center mb-1">
        <h3 id={titleId} className="h6 mb-0">
          {texts.title}
        </h3>
        <Link to={`/streams/${noun}/${streamId}`} className="small">
          {texts.manage}
        </Link>
      </div>
      {jobs.isPending ? (
        <Loading />
      ) : jobs.isError && !jobs.data ? (
        <p className="small text-danger mb-0">{texts.loadFailed}</p>
      ) : items.length === 0 ? (
        <p className="small text-secondary mb-0">{texts.none}</p>
      ) : (
        <ul className="list-unstyled mb-0">
          {items.map((job) => (
            <li key={job.id} className="d-flex align-items-center gap-2 small py-1">
              {renderLine(job)}
              {job.autostart && <span className="text-secondary">autostart</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
