import type { ApiClient } from '@streamcloud/api-client';
import {
  type ProcessingType,
  type StatisticProtocol,
  type StatisticsResponse,
  statisticsRoutes,
} from '@streamcloud/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { billingKeys } from './keys';

export interface AccountUsageParams {
  /** ISO timestamps: the start of the From day and the end of the To day, in UTC. */
  from: string;
  to: string;
  /** The account; the caller's own when null. */
  account: string | null;
  protocol?: StatisticProtocol | undefined;
  processing?: ProcessingType | undefined;
}

export async function getAccountUsage(
  api: ApiClient,
  params: AccountUsageParams,
  signal?: AbortSignal,
): Promise<StatisticsResponse> {
  const data = await api.call(statisticsRoutes.usage, {
    params: { from: params.from, to: params.to },
    query: {
      ...(params.account ? { account: params.account } : {}),
      ...(params.protocol ? { protocol: params.protocol } : {}),
      ...(params.processing ? { processing: params.processing } : {}),
    },
    ...(signal ? { signal } : {}),
  });
  if ('result' in data) throw new Error('Expected usage, got metric series');
  return data;
}

export function accountUsageQueryOptions(api: ApiClient, params: AccountUsageParams) {
  return queryOptions({
    queryKey: billingKeys.accountUsage(params),
    queryFn: ({ signal }) => getAccountUsage(api, params, signal),
  });
}

/** The account report; nothing loads until there are params (the Search button sets them). */
export function useAccountUsage(params: AccountUsageParams | null) {
  const api = useApi();
  return useQuery({
    ...accountUsageQueryOptions(api, params ?? { from: '', to: '', account: null }),
    enabled: params !== null,
    placeholderData: keepPreviousData,
  });
}
