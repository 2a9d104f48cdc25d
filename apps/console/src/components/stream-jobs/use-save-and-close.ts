import { messageOr } from '@streamcloud/api-client';
import { useNotify } from '@/components/ui/notifications';

/**
 * A form's onSave: saves and hands on what was saved; a failure is told (the server's message, else
 * `failedText`) and thrown again, so the form stays open as it is and shows the server's field messages.
 */
export function useSaveAndClose<V, R>(
  save: (values: V) => Promise<R>,
  failedText: string,
  onSaved: (saved: R) => void,
): (values: V) => Promise<void> {
  const notify = useNotify();
  return async (values) => {
    let saved: R;
    try {
      saved = await save(values);
    } catch (error) {
      notify(messageOr(error, failedText));
      throw error;
    }
    onSaved(saved);
  };
}
