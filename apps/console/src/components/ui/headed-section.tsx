import type { ReactNode } from 'react';

export interface HeadedSectionProps {
  /** The heading's id, which names the section. */
  id: string;
  title: ReactNode;
  /** An h2 (styled h5) for a part of a page, an h3 (styled h6) for a part of a card or dialog. */
  level?: 2 | 3;
  className?: string;
  children: ReactNode;
}

/** A section named by its heading (a region screen readers list by that name). */
export function HeadedSection({ id, title, level = 3, className, children }: HeadedSectionProps) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section aria-labelledby={id} className={className}>
      <Heading id={id} className={level === 2 ? 'h5' : 'h6'}>
        {title}
      </Heading>
      {children}
    </section>
  );
}
