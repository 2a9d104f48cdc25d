import type { StreamDescription } from './streams.table.js';

export type { StreamDescription } from './streams.table.js';

/**
 * The streams module's port for other modules (StreamsRepository implements it, the unit of work hands it
 * out as `streamCatalog`): what they may read of streams, on their own connection or transaction.
 */
export interface StreamCatalog {
  /** The streams among `streamIds` that exist. */
  describe(streamIds: string[]): Promise<StreamDescription[]>;
}
