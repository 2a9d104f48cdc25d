/**
 * The recording file name template, shared by the recording form (live example, length counter,
 * placeholder buttons) and the server (normalisation on save) and the media node (rendering when a
 * recording starts). Placeholders are written `{name}`; any other text is kept as it is.
 *
 * - `normalizeFileName`: what is stored. Blank → `{uuid}`; for autostart, a name without placeholders
 *   gets `_{uuid}` appended (each run of an autostarting recording must get its own file).
 * - `renderFileName`: the name of one file. Over FILE_NAME_LIMIT characters it is truncated and a uuid
 *   appended, so it is never longer than the limit.
 */

export const FILE_NAME_PLACEHOLDERS = [
  'year',
  'month',
  'day',
  'hour',
  'min',
  'sec',
  'ms',
  'timestamp',
  'datetime',
  'streamId',
  'streamName',
  'uuid',
] as const;
export type FileNamePlaceholder = (typeof FILE_NAME_PLACEHOLDERS)[number];

/** What the placeholder buttons of the form say. */
export const FILE_NAME_PLACEHOLDER_LABELS: Record<FileNamePlaceholder, string> = {
  year: 'Year',
  month: 'Month',
  day: 'Day',
  hour: 'Hour',
  min: 'Minute',
  sec: 'Second',
  ms: 'Millisecond',
  timestamp: 'Timestamp',
  datetime: 'Date and time',
  streamId: 'Stream ID',
  streamName: 'Stream name',
  uuid: 'UUID',
};

/** What each placeholder stands for (button titles). */
export const FILE_NAME_PLACEHOLDER_HINTS: Record<FileNamePlaceholder, string> = {
  year: 'Four-digit year (UTC)',
  month: 'Two-digit month, 01 to 12 (UTC)',
  day: 'Two-digit day of the month (UTC)',
  hour: 'Two-digit hour, 00 to 23 (UTC)',
  min: 'Two-digit minute (UTC)',
  sec: 'Two-digit second (UTC)',
  ms: 'Three-digit millisecond',
  timestamp: 'Seconds since the Unix epoch',
  datetime: 'Date and time in ISO 8601 (UTC)',
  streamId: 'The id of the stream',
  streamName: 'The name of the stream (in+, out+ or as+ followed by a UUID)',
  uuid: 'A new UUID for every file',
};

/** A rendered file name is at most this long (longer ones are truncated and get a uuid). */
export const FILE_NAME_LIMIT = 254;
/** The template field's own limit (section 5). */
export const FILE_NAME_MAX = 255;
/** A UUID is 36 characters; appended with a separator. */
const UUID_LENGTH = 36;
const SEPARATOR = '_';

export const placeholderToken = (placeholder: FileNamePlaceholder): string => `{${placeholder}}`;

/** The default template: one uuid per file. */
export const DEFAULT_FILE_NAME = placeholderToken('uuid');

/** What the file name tooltip says (section 5: a non-unique name gets a uuid; the tooltip's limit is 250). */
export const FILE_NAME_TOOLTIP =
  'The name of the recorded file, without extension. Placeholders in braces are replaced when the recording starts. ' +
  'A name that is not unique gets a uuid appended. The limit is 250 characters.';

/** Characters a file name may not hold: path separators and control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const FORBIDDEN = /[/\\\u0000-\u001f\u007f]/;
export const FILE_NAME_FORBIDDEN_MESSAGE = 'File name must not contain /, \\ or control characters';

export function fileNameHasForbiddenCharacters(template: string): boolean {
  return FORBIDDEN.test(template);
}

const TOKEN = /\{([A-Za-z]+)\}/g;
const isPlaceholder = (name: string): name is FileNamePlaceholder =>
  (FILE_NAME_PLACEHOLDERS as readonly string[]).includes(name);

/** The placeholders a template uses, each once, in the order of the list above. */
export function placeholdersIn(template: string): FileNamePlaceholder[] {
  const found = new Set<string>();
  for (const match of template.matchAll(TOKEN)) if (isPlaceholder(match[1] as string)) found.add(match[1] as string);
  return FILE_NAME_PLACEHOLDERS.filter((placeholder) => found.has(placeholder));
}

export function hasPlaceholders(template: string): boolean {
  return placeholdersIn(template).length > 0;
}

/**
 * A placeholder button: removes the placeholder (with the separator it was added with) when the name
 * has it, else appends it after a separator. Toggling twice gives the name back.
 */
export function togglePlaceholder(template: string, placeholder: FileNamePlaceholder): string {
  const token = placeholderToken(placeholder);
  if (template.includes(token)) {
    let removed = template.split(`${SEPARATOR}${token}`).join('');
    if (removed.startsWith(`${token}${SEPARATOR}`)) removed = removed.slice(token.length + SEPARATOR.length);
    return removed.split(token).join('');
  }
  return template === '' ? token : `${template}${SEPARATOR}${token}`;
}

/**
 * The template as it is stored: trimmed; blank → `{uuid}`; for autostart without any placeholder,
 * `_{uuid}` is appended (the name is shortened to make room within FILE_NAME_MAX).
 */
export function normalizeFileName(template: string, options: { autostart: boolean }): string {
  const trimmed = template.trim();
  if (trimmed === '') return DEFAULT_FILE_NAME;
  if (options.autostart && !hasPlaceholders(trimmed)) return withUuid(trimmed);
  return trimmed;
}

/** A template that renders a new name each time (a `{uuid}` appended when it has none), within the length limit. */
export function withUuid(template: string): string {
  if (template.includes(DEFAULT_FILE_NAME)) return template;
  const suffix = `${SEPARATOR}${DEFAULT_FILE_NAME}`;
  return `${template.slice(0, FILE_NAME_MAX - suffix.length)}${suffix}`;
}

export interface FileNameContext {
  /** When the recording starts. */
  date: Date;
  streamId: string;
  /** The name the recorded stream is published under (`in+<uuid>`, `out+<uuid>`, `as+<uuid>`). */
  streamName: string;
  /** A new UUID for each `{uuid}` and for a truncated name. */
  uuid: () => string;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function placeholderValue(placeholder: FileNamePlaceholder, context: FileNameContext): string {
  const { date } = context;
  switch (placeholder) {
    case 'year':
      return pad(date.getUTCFullYear(), 4);
    case 'month':
      return pad(date.getUTCMonth() + 1);
    case 'day':
      return pad(date.getUTCDate());
    case 'hour':
      return pad(date.getUTCHours());
    case 'min':
      return pad(date.getUTCMinutes());
    case 'sec':
      return pad(date.getUTCSeconds());
    case 'ms':
      return pad(date.getUTCMilliseconds(), 3);
    case 'timestamp':
      return String(Math.floor(date.getTime() / 1000));
    case 'datetime':
      return date.toISOString();
    case 'streamId':
      return context.streamId;
    case 'streamName':
      return context.streamName;
    case 'uuid':
      return context.uuid();
  }
}

/** Replaces the placeholders; unknown `{words}` stay as written. No length rule. */
export function expandFileName(template: string, context: FileNameContext): string {
  return template.replace(TOKEN, (whole, name: string) =>
    isPlaceholder(name) ? placeholderValue(name, context) : whole,
  );
}

/** Cuts a name to the limit, appending `_<uuid>`; a name within the limit is answered as it is. */
export function limitFileName(name: string, uuid: () => string): string {
  if (name.length <= FILE_NAME_LIMIT) return name;
  return `${name.slice(0, FILE_NAME_LIMIT - UUID_LENGTH - SEPARATOR.length)}${SEPARATOR}${uuid()}`;
}

/** The name of one file of a recording: the normalised template, expanded, within FILE_NAME_LIMIT. */
export function renderFileName(template: string, context: FileNameContext, options: { autostart: boolean }): string {
  return limitFileName(expandFileName(normalizeFileName(template, options), context), context.uuid);
}

export interface FileNameExample {
  /** What a file would be called if the recording started now. */
  example: string;
  /** The example's length before the limit is applied (the form's counter against FILE_NAME_LIMIT). */
  length: number;
  /** True when the example is over the limit (so a file would be truncated and get a uuid). */
  truncated: boolean;
}

/** The form's live example and length counter. The uuid function should answer one stable sample. */
export function fileNameExample(
  template: string,
  context: FileNameContext,
  options: { autostart: boolean },
): FileNameExample {
  const expanded = expandFileName(normalizeFileName(template, options), context);
  return {
    example: limitFileName(expanded, context.uuid),
    length: expanded.length,
    truncated: expanded.length > FILE_NAME_LIMIT,
  };
}
