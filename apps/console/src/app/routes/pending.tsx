import { PageShell } from '@/components/ui/page-shell';

export const NOT_AVAILABLE = 'This feature is not available yet.';

/** A screen whose feature has not been built: its title and an honest note, nothing more. */
export function PendingScreen({ title }: { title: string }) {
  return (
    <PageShell title={title}>
      <p className="text-secondary">{NOT_AVAILABLE}</p>
    </PageShell>
  );
}
