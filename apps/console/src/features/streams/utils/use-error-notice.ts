import { messageOr } from '@streamcloud/api-client';
import { useEffect, useRef } from 'react';
import { useNotify } from '@/components/ui/notifications';

/**
 * Shows a query's failure once when it starts failing (not on every poll that fails again): the
 * server's message, else the fallback text.
 */
export function useErrorNotice(error: unknown, fallback: string): void {
  const notify = useNotify();
  const failing = useRef(false);
  useEffect(() => {
    if (!error) {
      failing.current = false;
      return;
    }
    if (failing.current) return;
    failing.current = true;
    notify(messageOr(error, fallback));
  }, [error, fallback, notify]);
}
