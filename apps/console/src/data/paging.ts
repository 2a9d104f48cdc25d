import { TOTAL_COUNT_HEADER } from '@streamcloud/contract';

/** One page of a paged list and how many items the list holds in all (X-Total-Count). */
export interface Page<T> {
  items: T[];
  total: number;
}

/** A page from an answer's items and headers; without a usable total, the list ends with this page. */
export function pageOf<T>(items: T[], headers: Headers, offset: number): Page<T> {
  const total = Number(headers.get(TOTAL_COUNT_HEADER));
  return { items, total: headers.has(TOTAL_COUNT_HEADER) && Number.isFinite(total) ? total : offset + items.length };
}

/** Where the next page starts, or undefined once everything is loaded. */
export function nextOffset(pages: Page<unknown>[]): number | undefined {
  const last = pages.at(-1);
  if (!last) return 0;
  const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
  return loaded < last.total && last.items.length > 0 ? loaded : undefined;
}
