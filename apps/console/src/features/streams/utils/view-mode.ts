/** The list/grid choice of the stream list, remembered in local storage. */
export type ViewMode = 'list' | 'grid';

export const VIEW_MODE_KEY = 'streams_view_mode';
export const DEFAULT_VIEW_MODE: ViewMode = 'list';

type ViewModeStorage = Pick<Storage, 'getItem' | 'setItem'>;

function browserStorage(): ViewModeStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readViewMode(storage: ViewModeStorage | null = browserStorage(), prefix = ''): ViewMode {
  try {
    const stored = storage?.getItem(`${prefix}${VIEW_MODE_KEY}`);
    return stored === 'grid' || stored === 'list' ? stored : DEFAULT_VIEW_MODE;
  } catch {
    return DEFAULT_VIEW_MODE;
  }
}

export function writeViewMode(mode: ViewMode, storage: ViewModeStorage | null = browserStorage(), prefix = ''): void {
  try {
    storage?.setItem(`${prefix}${VIEW_MODE_KEY}`, mode);
  } catch (error) {
    console.warn('The view mode could not be remembered', error);
  }
}
