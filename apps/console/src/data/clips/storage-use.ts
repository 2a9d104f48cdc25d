import { clipRoutes } from '@streamcloud/contract';
import { useRouteQuery } from '@/data/route-query';
import { clipKeys } from './keys';

/** What Ready clips take in each storage the caller sees (GET /clips/storage-use): the storages screen's Clips column. */
export function useClipStorageUse() {
  return useRouteQuery(clipRoutes.storageUse, clipKeys.storageUse(), {});
}
