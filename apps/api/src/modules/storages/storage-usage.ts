/**
 * Which resources use a storage; a storage in use cannot be deleted. The recordings module implements
 * this port (counting the recordings whose storage_id is the storage) and the unit of work hands it to the
 * storages service as `storageUsage` (tests may give their own through buildApp's `storageUsage`).
 *
 * The count is read before the delete, so a recording created in between could slip through: the
 * recordings table should also reference storages(id) ON DELETE RESTRICT; the repository turns that
 * foreign-key refusal into the same 409.
 */
export interface StorageUsage {
  /** How many recordings use the storage (any state: a finished recording still names where it is). */
  recordingsUsing(storageId: string): Promise<number>;
}
