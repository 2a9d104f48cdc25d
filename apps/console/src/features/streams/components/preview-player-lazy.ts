import { lazyComponent } from '@/components/ui/on-demand';

/** The player (WHEP, hls.js, stats) is fetched when a stream's dashboard opens, never in the first load. */
export const PreviewPlayer = lazyComponent(() => import('./preview-player'), 'PreviewPlayer');
