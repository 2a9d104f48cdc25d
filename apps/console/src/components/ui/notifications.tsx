import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import './notifications.css';

export type NotificationVariant = 'danger' | 'warning' | 'success' | 'info';

interface Notification {
  id: number;
  message: string;
  variant: NotificationVariant;
}

export type Notify = (message: string, variant?: NotificationVariant) => void;

const NotifyContext = createContext<Notify | null>(null);

export const NOTIFICATION_TIMEOUT_MS = 10_000;

/** In-page notifications (role="alert"); each one closes by its button or after a while. */
export function NotificationsProvider({
  children,
  timeoutMs = NOTIFICATION_TIMEOUT_MS,
}: {
  children: ReactNode;
  timeoutMs?: number;
}) {
  const [notifications, setNotifications] = useState<Notification[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setNotifications((list) => list.filter((item) => item.id !== id));
  }, []);

  const notify = useCallback<Notify>(
    (message, variant = 'danger') => {
      const id = nextId.current++;
      setNotifications((list) => [...list, { id, message, variant }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), timeoutMs),
      );
    },
    [dismiss, timeoutMs],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  return (
    <NotifyContext.Provider value={notify}>
      {children}
      <div className="notification-stack">
        {notifications.map((item) => (
          // Bootstrap's alert markup without react-bootstrap's Alert: every page has this stack, so it is
          // part of the first load, which stays free of react-bootstrap (and its transitions).
          <div key={item.id} role="alert" className={`alert alert-${item.variant} alert-dismissible`}>
            {item.message}
            <button
              type="button"
              className="btn-close"
              aria-label="Dismiss notification"
              onClick={() => dismiss(item.id)}
            />
          </div>
        ))}
      </div>
    </NotifyContext.Provider>
  );
}

export function useNotify(): Notify {
  const notify = useContext(NotifyContext);
  if (!notify) throw new Error('NotificationsProvider is missing');
  return notify;
}
