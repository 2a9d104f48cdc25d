import { useParams } from 'react-router';
import { PageShell } from '@/components/ui/page-shell';
import { TitledCard } from '@/components/ui/titled-card';
import { DeliveryLog } from './delivery-log';
import { SigningSecretCard } from './signing-secret-card';
import { TestEventCard } from './test-event-form';

/**
 * /webhooks: the caller's account's signing secret, a test event and every callback sent;
 * /webhooks/account/{id} (ADMIN): another account's, or the platform's (`platform`: node groups without
 * an owner).
 */
export function WebhooksScreen() {
  const { id } = useParams();
  return (
    <PageShell title={id === 'platform' ? 'Webhooks of the platform' : 'Webhooks'}>
      <p className="text-secondary">
        Streams, outputs, recordings, relays and node groups call their callback URI on their events, with a signed
        POST, retried for a day until the receiver answers 2xx.
      </p>
      <SigningSecretCard account={id} />
      <TestEventCard account={id} />
      <TitledCard title="Callbacks">
        <DeliveryLog filter={id ? { account: id } : {}} showTarget />
      </TitledCard>
    </PageShell>
  );
}
