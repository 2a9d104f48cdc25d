import type { ComponentProps, ReactNode } from 'react';

export type FieldBoxProps = Omit<ComponentProps<'fieldset'>, 'className'> & { legend: string; children: ReactNode };

/** A bordered group of form fields named by its legend. */
export function FieldBox({ legend, children, ...fieldset }: FieldBoxProps) {
  return (
    <fieldset className="border rounded p-3 mb-3" {...fieldset}>
      <legend className="fs-6 float-none w-auto px-1 mb-0">{legend}</legend>
      {children}
    </fieldset>
  );
}
