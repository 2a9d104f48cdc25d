import type { ReactNode } from 'react';

const PRODUCT = 'Streamcloud';

/** A page: its title as the document title and as the one top heading. */
export function PageShell({ title, actions, children }: { title: string; actions?: ReactNode; children?: ReactNode }) {
  return (
    <section className="py-3">
      <title>{`${title} · ${PRODUCT}`}</title>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{title}</h1>
        {actions}
      </div>
      {children}
    </section>
  );
}
