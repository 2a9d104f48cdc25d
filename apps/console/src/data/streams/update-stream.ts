import { type BodyOf, streamRoutes } from '@streamcloud/contract';
import { savesResource } from '../resource-writes';
import { useRouteMutation } from '../route-mutation';
import { streamKeys } from './keys';

/** What PUT /inputs/{id} takes: any of state (Idle stops the stream), streamer and caption. */
export type StreamUpdateBody = Pick<BodyOf<typeof streamRoutes.update>, 'state' | 'streamer' | 'caption'>;

/**
 * Caption edit, streamer update and stop (state Idle) all go through PUT /inputs/{id} (the dashboard and the
 * stream form): the saved stream is shown at once, and the lists read again.
 */
export function useUpdateStream() {
  return useRouteMutation(streamRoutes.update, {
    toRequest: ({ id, body }: { id: string; body: StreamUpdateBody }) => ({ params: { id }, body }),
    ...savesResource(streamKeys),
  });
}
