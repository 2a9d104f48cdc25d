import infoCircleIcon from 'bootstrap-icons/icons/info-circle.svg?raw';
import pencilIcon from 'bootstrap-icons/icons/pencil.svg?raw';
import stopCircleIcon from 'bootstrap-icons/icons/stop-circle.svg?raw';
import trashIcon from 'bootstrap-icons/icons/trash.svg?raw';
import type { ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { Icon } from '@/components/ui/icon';
import type { JobActions, StreamJob } from './stream-job';

/** What a feature shows of one job in its list. */
export interface JobSummary {
  badge: ReactNode;
  /** The job's name, carrying `titleId` (the item is labelled by it), and what follows it on its line. */
  heading: (titleId: string) => ReactNode;
  /** `Label: value` facts under the id. */
  facts: readonly (readonly [label: string, value: ReactNode])[];
}

export type JobItemAction = 'info' | 'edit' | 'stop' | 'delete';

export interface JobListItemProps {
  job: StreamJob;
  noun: string;
  summary: JobSummary;
  /** Whether Stop and Delete are offered now; Info and Edit always are. */
  actions: JobActions;
  on: Record<JobItemAction, () => void>;
}

const BUTTONS: readonly { action: JobItemAction; label: string; variant: string; icon: string }[] = [
  { action: 'info', label: 'Info', variant: 'outline-secondary', icon: infoCircleIcon },
  { action: 'edit', label: 'Edit', variant: 'outline-primary', icon: pencilIcon },
  { action: 'stop', label: 'Stop', variant: 'outline-warning', icon: stopCircleIcon },
  { action: 'delete', label: 'Delete', variant: 'outline-danger', icon: trashIcon },
];

/** One job of a stream's list: its state, name, facts and latest message, with Info, Edit, Stop and Delete. */
export function JobListItem({ job, noun, summary, actions, on }: JobListItemProps) {
  const offered: Record<JobItemAction, boolean> = { info: true, edit: true, ...actions };
  const titleId = `${noun}-${job.id}`;
  const [latest] = job.messages;
  return (
    <li className="list-group-item" aria-labelledby={titleId} {...{ [`data-${noun}-id`]: job.id }}>
      <div className="d-flex flex-wrap justify-content-between align-items-start gap-2">
        <div style={{ minWidth: 0 }}>
          <div className="d-flex flex-wrap align-items-center gap-2">
            {summary.badge}
            {job.autostart && <Badge bg="secondary">Autostart</Badge>}
            {summary.heading(titleId)}
          </div>
          <div className="small text-secondary font-monospace">{job.id}</div>
          <div className="small mt-1 d-flex flex-wrap gap-3">
            {summary.facts.map(([label, value]) => (
              <span key={label}>
                {label}: {value}
              </span>
            ))}
          </div>
          {latest && <div className="small text-secondary mt-1">{latest.text}</div>}
        </div>
        <div className="d-flex flex-wrap gap-1">
          {BUTTONS.map(({ action, label, variant, icon }) => (
            <Button key={action} size="sm" variant={variant} disabled={!offered[action]} onClick={on[action]}>
              <Icon svg={icon} className="me-1" />
              {label}
            </Button>
          ))}
        </div>
      </div>
    </li>
  );
}
