import {
  type AccessMode,
  InputFormat,
  OutputModeEnum,
  type StreamInputSummary,
  StreamStatus,
} from '@streamcloud/contract';

export type OutputMode = StreamInputSummary['outputMode'];

/** The processing names the console shows for an output mode. */
export const OUTPUT_MODE_LABELS: Record<OutputMode, string> = {
  AdjustableTranscode: 'Adjustable transcoding',
  Passthrough: 'Passthrough',
};

export const ACCESS_LABELS: Record<AccessMode, string> = {
  Public: 'Public',
  PrivateIngoing: 'Private ingoing',
  Private: 'Private',
};

const ACCESS_TOOLTIPS: Record<AccessMode, string> = {
  Public: 'Anyone may push and play the stream',
  PrivateIngoing: 'Pushing the stream needs its access token',
  Private: 'Pushing and playing the stream need its access token',
};

export const UNKNOWN_ACCESS_MODE = 'Unknown access mode';

export function accessLabel(access: string): string {
  return ACCESS_LABELS[access as AccessMode] ?? access;
}

export function accessTooltip(access: string): string {
  return ACCESS_TOOLTIPS[access as AccessMode] ?? UNKNOWN_ACCESS_MODE;
}

export interface FilterOption<T extends string> {
  value: T;
  label: string;
}

export const FORMAT_OPTIONS: FilterOption<StreamInputSummary['format']>[] = InputFormat.options.map((value) => ({
  value,
  label: value,
}));
export const STATUS_OPTIONS: FilterOption<StreamInputSummary['status']>[] = StreamStatus.options.map((value) => ({
  value,
  label: value,
}));
export const OUTPUT_MODE_OPTIONS: FilterOption<OutputMode>[] = OutputModeEnum.options.map((value) => ({
  value,
  label: OUTPUT_MODE_LABELS[value],
}));

/** What the filter dropdowns select (the search box aside). */
export interface StreamChoices {
  formats: readonly StreamInputSummary['format'][];
  statuses: readonly StreamInputSummary['status'][];
  outputModes: readonly OutputMode[];
}

export interface StreamFilters extends StreamChoices {
  search: string;
}

export const NO_CHOICES: StreamChoices = { formats: [], statuses: [], outputModes: [] };
export const NO_FILTERS: StreamFilters = { search: '', ...NO_CHOICES };

/** A dropdown's caption: the selected names joined by commas, or 'All'. */
export function filterCaption<T extends string>(options: readonly FilterOption<T>[], selected: readonly T[]): string {
  const names = options.filter((option) => selected.includes(option.value)).map((option) => option.label);
  return names.length === 0 ? 'All' : names.join(', ');
}

/** A stream's id and caption, lower-cased once per stream object (not once per keystroke). */
const searchTexts = new WeakMap<Pick<StreamInputSummary, 'id' | 'caption'>, string>();

function searchText(stream: Pick<StreamInputSummary, 'id' | 'caption'>): string {
  let text = searchTexts.get(stream);
  if (text === undefined) {
    // A line break between them: a search box's text has none, so no match runs from one into the other.
    text = `${stream.id}\n${stream.caption ?? ''}`.toLowerCase();
    searchTexts.set(stream, text);
  }
  return text;
}

/**
 * The test the filters make of a stream, with what is the same for every stream worked out once: the list
 * runs it over every loaded stream (10,000 and more) on each keystroke. An empty selection lets everything
 * through; the search is a case-insensitive match of the trimmed text against the id or the caption.
 */
export function streamFilter(filters: StreamFilters): (stream: StreamInputSummary) => boolean {
  const needle = filters.search.trim().toLowerCase();
  const formats = filters.formats.length > 0 ? new Set(filters.formats) : null;
  const statuses = filters.statuses.length > 0 ? new Set(filters.statuses) : null;
  const outputModes = filters.outputModes.length > 0 ? new Set(filters.outputModes) : null;
  return (stream) =>
    (formats === null || formats.has(stream.format)) &&
    (statuses === null || statuses.has(stream.status)) &&
    (outputModes === null || outputModes.has(stream.outputMode)) &&
    (needle === '' || searchText(stream).includes(needle));
}

/** Case-insensitive match of the trimmed text against the id or the caption. */
export function matchesSearch(stream: Pick<StreamInputSummary, 'id' | 'caption'>, search: string): boolean {
  const needle = search.trim().toLowerCase();
  return needle === '' || searchText(stream).includes(needle);
}

/** An empty selection lets everything through. */
export function matchesFilters(stream: StreamInputSummary, filters: StreamFilters): boolean {
  return streamFilter(filters)(stream);
}

/** What a stream is listed by: its caption, or its id when it has none. */
export function sortName(stream: Pick<StreamInputSummary, 'id' | 'caption'>): string {
  return stream.caption || stream.id;
}

/** Sorted by format, then caption or id (case-insensitive), then id; a new array. */
export function sortStreams<T extends Pick<StreamInputSummary, 'id' | 'caption' | 'format'>>(
  streams: readonly T[],
): T[] {
  const keyed = streams.map((stream) => ({ stream, name: sortName(stream).toLowerCase() }));
  keyed.sort(
    (a, b) =>
      compareText(a.stream.format, b.stream.format) ||
      compareText(a.name, b.name) ||
      compareText(a.stream.id, b.stream.id),
  );
  return keyed.map((item) => item.stream);
}

function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** The loaded pages as one list: each stream once, sorted. */
export function mergePages(pages: readonly (readonly StreamInputSummary[])[]): StreamInputSummary[] {
  const byId = new Map<string, StreamInputSummary>();
  for (const page of pages) for (const stream of page) byId.set(stream.id, stream);
  return sortStreams([...byId.values()]);
}

export interface ListedStream {
  stream: StreamInputSummary;
  isNew: boolean;
}

/**
 * What the list shows: the just-created stream first (marked new), then the others in their order;
 * all of them through the search and the filters.
 */
export function visibleStreams(
  sorted: readonly StreamInputSummary[],
  filters: StreamFilters,
  created: StreamInputSummary | null,
): ListedStream[] {
  const matches = streamFilter(filters);
  const result: ListedStream[] = [];
  if (created) {
    const latest = sorted.find((stream) => stream.id === created.id) ?? created;
    if (matches(latest)) result.push({ stream: latest, isNew: true });
  }
  for (const stream of sorted) {
    if (stream.id !== created?.id && matches(stream)) result.push({ stream, isNew: false });
  }
  return result;
}

/**
 * visibleStreams that remembers its last answer: when the list, the new stream and the filter choices are
 * the same and the search only adds to the last one's text (the user typed on), every stream it lets
 * through was let through last time, so only the last answer is searched (a few hundred streams rather
 * than 10,000 on the second key of a search).
 */
export function narrowingVisibleStreams(): typeof visibleStreams {
  let last: {
    sorted: readonly StreamInputSummary[];
    filters: StreamFilters;
    created: StreamInputSummary | null;
    needle: string;
    result: ListedStream[];
  } | null = null;
  return (sorted, filters, created) => {
    const needle = filters.search.trim().toLowerCase();
    const narrowing =
      last !== null &&
      last.sorted === sorted &&
      last.created === created &&
      last.filters.formats === filters.formats &&
      last.filters.statuses === filters.statuses &&
      last.filters.outputModes === filters.outputModes &&
      needle.includes(last.needle);
    let result: ListedStream[];
    if (narrowing && last !== null) {
      const matches = streamFilter(filters);
      result = last.result.filter((item) => matches(item.stream));
    } else {
      result = visibleStreams(sorted, filters, created);
    }
    last = { sorted, filters, created, needle, result };
    return result;
  };
}

/** Adds or removes a value of a multi-select. */
export function toggleValue<T>(values: readonly T[], value: T): T[] {
  return values.includes(value) ? values.filter((item) => item !== value) : [...values, value];
}
