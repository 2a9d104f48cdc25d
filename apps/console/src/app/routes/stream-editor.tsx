import { StreamEditorRoute } from '@/features/streams/components/stream-editor-route';
import { slots } from './stream-dashboard';

/** /streams/{mode}/{id}: the stream modal over the list or over this same dashboard. */
export function StreamEditorPage() {
  return <StreamEditorRoute slots={slots} />;
}
