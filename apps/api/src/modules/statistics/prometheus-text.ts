/** Prometheus' text format 0.0.4: a label value escaped (backslash, quote, line feed). */
export const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** A sample's label set, `{name="value",…}`. */
export const labels = (values: Record<string, string>) =>
  `{${Object.entries(values)
    .map(([label, value]) => `${label}="${escapeLabel(value)}"`)
    .join(',')}}`;

/** A source of more series for the /metrics exposition (another module's), as text lines. */
export type ExpositionSource = () => Promise<string[]>;
