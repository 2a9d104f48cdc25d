/**
 * CSV cells for every file the product writes (RFC 4180): a cell holding a comma, a quote or a line break is
 * quoted, quotes doubled. A cell a spreadsheet would read as a formula — starting with `=`, `+`, `-`, `@`, a
 * tab or a carriage return (OWASP's CSV injection rule) — is neutralised with a leading `'`, so a node or
 * stream name like `=HYPERLINK(…)` or `=cmd|' /C calc'!A0` is shown as text, never run.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record (without its line ending). */
export const csvRecord = (values: readonly string[]): string => values.map(csvCell).join(',');
