import type { StatusMessage } from '@streamcloud/contract';
import exclamationTriangleIcon from 'bootstrap-icons/icons/exclamation-triangle.svg?raw';
import infoCircleIcon from 'bootstrap-icons/icons/info-circle.svg?raw';
import xOctagonIcon from 'bootstrap-icons/icons/x-octagon.svg?raw';
import { Icon } from '@/components/ui/icon';
import { DashboardCard } from './dashboard-card';

const LEVEL_CLASS: Record<StatusMessage['level'], string> = {
  info: 'text-secondary',
  warning: 'text-warning-emphasis',
  error: 'text-danger',
};

/** The level is told by the icon alone, so the icon is named after it. */
const LEVEL_ICON: Record<StatusMessage['level'], { svg: string; label: string }> = {
  info: { svg: infoCircleIcon, label: 'Info' },
  warning: { svg: exclamationTriangleIcon, label: 'Warning' },
  error: { svg: xOctagonIcon, label: 'Error' },
};

/** The stream's status messages, newest first. */
export function MessagesCard({ messages }: { messages: StatusMessage[] }) {
  const newestFirst = [...messages].reverse();
  return (
    <DashboardCard title="Messages">
      {newestFirst.length === 0 ? (
        <p className="text-secondary mb-0">No messages.</p>
      ) : (
        <ul className="list-unstyled mb-0 small" style={{ maxHeight: '16rem', overflowY: 'auto' }}>
          {newestFirst.map((message, index) => (
            // Messages have no id; they are only ever appended, so their original place is a stable key.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={`${message.at}-${newestFirst.length - index}`} className="mb-1">
              <Icon {...LEVEL_ICON[message.level]} className={`me-1 ${LEVEL_CLASS[message.level]}`} />
              <time dateTime={message.at} className="text-secondary me-2">
                {new Date(message.at).toLocaleString()}
              </time>
              <span className={message.level === 'info' ? '' : LEVEL_CLASS[message.level]}>{message.text}</span>
            </li>
          ))}
        </ul>
      )}
    </DashboardCard>
  );
}
