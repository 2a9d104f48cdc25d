import type { ViewerSessionSummary } from '@streamcloud/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useSessionTimeline, useStreamSessions } from '@/data/analytics/reads';
import { formatCount, formatDateTime } from '@/lib/format';
import { formatMs, formatWatch } from '../utils/analytics-format';
import { ANALYTICS_TEXTS } from '../utils/messages';
import { LoadError } from './load-error';

/** The stream's latest playback sessions in the window; each opens its timeline. */
export function SessionList({ streamId, minutes }: { streamId: string; minutes: number }) {
  const sessions = useStreamSessions(streamId, minutes);
  const [open, setOpen] = useState<ViewerSessionSummary | null>(null);
  const list = sessions.data?.sessions ?? [];
  return (
    <>
      <h3 className="h6 mt-3">{ANALYTICS_TEXTS.sessions}</h3>
      {sessions.isError ? <LoadError error={sessions.error} fallback={ANALYTICS_TEXTS.sessionsFailed} /> : null}
      {sessions.data && list.length === 0 ? <p className="text-secondary">{ANALYTICS_TEXTS.noSessions}</p> : null}
      {list.length > 0 ? (
        <div className="table-responsive">
          <table className="table table-sm">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Player</th>
                <th scope="col">Browser</th>
                <th scope="col">Country</th>
                <th scope="col">First frame</th>
                <th scope="col">Watch time</th>
                <th scope="col">Stalls</th>
                <th scope="col">Errors</th>
                <th scope="col">
                  <span className="visually-hidden">{ANALYTICS_TEXTS.timeline}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((session) => (
                <tr key={session.id}>
                  <td>{formatDateTime(session.startedAt)}</td>
                  <td>{session.player}</td>
                  <td>{`${session.browser} · ${session.os} · ${session.device}`}</td>
                  <td>{session.country}</td>
                  <td>{formatMs(session.ttffMs)}</td>
                  <td>{formatWatch(session.watchMs)}</td>
                  <td>{formatCount(session.rebufferCount)}</td>
                  <td>{formatCount(session.errors)}</td>
                  <td>
                    <Button
                      size="sm"
                      variant="outline-secondary"
                      aria-label={`${ANALYTICS_TEXTS.timeline} of the session started ${formatDateTime(session.startedAt)}`}
                      onClick={() => setOpen(session)}
                    >
                      {ANALYTICS_TEXTS.timeline}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <SessionTimeline session={open} onHide={() => setOpen(null)} />
    </>
  );
}

/** A session's events in order, in a dialog. */
function SessionTimeline({ session, onHide }: { session: ViewerSessionSummary | null; onHide: () => void }) {
  const detail = useSessionTimeline(session?.id ?? null);
  return (
    <Modal show={session !== null} onHide={onHide} aria-labelledby="session-timeline-title">
      <Modal.Header closeButton>
        <Modal.Title id="session-timeline-title" className="h5">
          {ANALYTICS_TEXTS.timeline}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {detail.isError ? <LoadError error={detail.error} fallback={ANALYTICS_TEXTS.timelineFailed} /> : null}
        <ol className="list-unstyled mb-0" aria-label="Session events">
          {detail.data?.timeline.map((event, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: events have no id; the list only grows at its end
            <li key={index}>
              <span className="text-secondary me-2">{formatDateTime(event.at)}</span>
              {event.type}
              {event.value !== null
                ? ` ${event.type === 'rendition' ? `${event.value} bps` : formatMs(event.value)}`
                : ''}
              {event.detail ? ` (${event.detail})` : ''}
            </li>
          ))}
        </ol>
      </Modal.Body>
    </Modal>
  );
}
