import type { ReactNode } from 'react';

export interface ToggleButtonsProps<V extends string> {
  legend: string;
  values: readonly V[];
  label: (value: V) => ReactNode;
  /** Shown pressed (`aria-pressed`), filled rather than outlined. */
  isPressed: (value: V) => boolean;
  onToggle: (value: V) => void;
  /** A button's tooltip. */
  title?: (value: V) => string;
  disabled?: boolean;
  /**
   * `primary`: a choice of the form's own, its legend a field's label; `secondary`: helpers inside a field
   * (its legend a small grey line).
   */
  tone?: 'primary' | 'secondary';
  /** The fieldset's spacing. */
  className?: string;
  /** What goes under the buttons (a note on the last press). */
  children?: ReactNode;
}

/** A group of toggle buttons named by its legend: presets to pick, placeholders to put in or take out. */
export function ToggleButtons<V extends string>({
  legend,
  values,
  label,
  isPressed,
  onToggle,
  title,
  disabled,
  tone = 'primary',
  className,
  children,
}: ToggleButtonsProps<V>) {
  return (
    <fieldset className={className}>
      <legend className={tone === 'primary' ? 'form-label fs-6 mb-1' : 'small text-secondary fs-6 mb-1'}>
        {legend}
      </legend>
      <div className="d-flex flex-wrap gap-1">
        {values.map((value) => (
          <button
            key={value}
            type="button"
            className={`btn btn-sm ${isPressed(value) ? `btn-${tone}` : `btn-outline-${tone}`}`}
            aria-pressed={isPressed(value)}
            title={title?.(value)}
            disabled={disabled}
            onClick={() => onToggle(value)}
          >
            {label(value)}
          </button>
        ))}
      </div>
      {children}
    </fieldset>
  );
}
