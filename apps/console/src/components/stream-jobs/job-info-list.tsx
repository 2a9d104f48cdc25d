import type { ReactNode } from 'react';
import { formatBytes, formatDateTime } from '@/lib/format';
import { InfoRow, NONE, orNone } from './info-row';
import type { StreamJob } from './stream-job';

export interface JobInfoListProps {
  job: StreamJob;
  /** 'Recording ID'. */
  idLabel: string;
  badge: ReactNode;
  runningState: string;
  /** The Stream row's content. */
  stream: ReactNode;
  /** The rows between Stream and Autostart: where the job writes or sends to. */
  destination: ReactNode;
  /** The Capture row's content. */
  capture: ReactNode;
  /** The rows between Capture and Uploaded. */
  figures?: ReactNode;
}

function MessageList({ messages }: { messages: StreamJob['messages'] }) {
  if (messages.length === 0) return NONE;
  return (
    <ul className="list-unstyled mb-0 small">
      {messages.map((message, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: messages have no id
        <li key={index}>
          <span className="text-secondary">{formatDateTime(message.at)}</span> {message.text}
        </li>
      ))}
    </ul>
  );
}

/** A job's info view: state, id and stream, the feature's rows, then what every job has. */
export function JobInfoList({
  job,
  idLabel,
  badge,
  runningState,
  stream,
  destination,
  capture,
  figures,
}: JobInfoListProps) {
  return (
    <dl className="row mb-0">
      <InfoRow label="State">
        {badge}
        {job.stopRequested && job.state === runningState && <span className="ms-2 small">stopping…</span>}
      </InfoRow>
      <InfoRow label={idLabel}>
        <code>{job.id}</code>
      </InfoRow>
      <InfoRow label="Stream">{stream}</InfoRow>
      {destination}
      <InfoRow label="Autostart">{job.autostart ? 'Yes' : 'No'}</InfoRow>
      <InfoRow label="Callback URI">{orNone(job.callbackUri)}</InfoRow>
      <InfoRow label="Capture">{capture}</InfoRow>
      {figures}
      <InfoRow label="Uploaded">{formatBytes(job.uploaded)}</InfoRow>
      <InfoRow label="Created">{formatDateTime(job.createdAt)}</InfoRow>
      <InfoRow label="Updated">{formatDateTime(job.updatedAt)}</InfoRow>
      <InfoRow label="Messages">
        <MessageList messages={job.messages} />
      </InfoRow>
    </dl>
  );
}
