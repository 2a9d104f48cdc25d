import { endOfDayUtc, isDateInput, startOfDayUtc } from '@/lib/format';

/** Custom dates of the dashboard (yyyy-mm-dd, '' when not picked). */
export interface CustomDates {
  from: string;
  to: string;
}

/** The window: the custom days (start of From to end of To, UTC) when both are picked, else the last `preset`. */
export function windowOf(preset: number, dates: CustomDates, now: number): { from: Date; to: Date } {
  if (isDateInput(dates.from) && isDateInput(dates.to)) {
    return { from: startOfDayUtc(dates.from), to: endOfDayUtc(dates.to) };
  }
  return { from: new Date(now - preset * 60_000), to: new Date(now) };
}
