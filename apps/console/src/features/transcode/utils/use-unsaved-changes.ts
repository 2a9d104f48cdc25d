import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/** Section 2's question when leaving the editor with unsaved changes. */
export const UNSAVED_CHANGES_QUESTION =
  'Are you sure you want to exit without saving? Any unsaved changes will be lost.';

/**
 * While `dirty`, in-app navigation waits for an answer (the blocker: proceed or reset) and closing or
 * reloading the tab asks the browser's own question.
 */
export function useUnsavedChanges(dirty: boolean) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show (or need) a returnValue.
      event.returnValue = UNSAVED_CHANGES_QUESTION;
      return UNSAVED_CHANGES_QUESTION;
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  // A blocked navigation that is no longer needed (the changes were saved meanwhile) goes ahead.
  useEffect(() => {
    if (blocker.state === 'blocked' && !dirty) blocker.proceed();
  }, [blocker, dirty]);

  return blocker;
}
