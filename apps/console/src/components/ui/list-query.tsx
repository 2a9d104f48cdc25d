import { messageOr } from '@streamcloud/api-client';
import type { ReactNode } from 'react';
import { Loading } from './loading';

export interface ListQueryProps<T> {
  /** The list's query (TanStack Query's result fits). */
  query: { isPending: boolean; isError: boolean; error: unknown; data: readonly T[] | undefined };
  /** Said when the list could not be loaded and the server did not say why. */
  failed: string;
  /** Shown when the list is empty. */
  empty: ReactNode;
  /** Paragraph classes for the error (a card's last line has no bottom margin: `mb-0`). */
  className?: string;
  children: (items: readonly T[]) => ReactNode;
}

/** A list's four states in one place: loading, the error (the server's words first), empty, the items. */
export function ListQuery<T>({ query, failed, empty, className = '', children }: ListQueryProps<T>) {
  if (query.isPending) return <Loading />;
  if (query.isError || !query.data) {
    return <p className={`text-danger ${className}`.trim()}>{messageOr(query.error, failed)}</p>;
  }
  if (query.data.length === 0) return empty;
  return children(query.data);
}
