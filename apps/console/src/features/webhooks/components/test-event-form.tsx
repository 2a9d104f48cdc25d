import { zodResolver } from '@hookform/resolvers/zod';
import { isApiError, messageOr } from '@streamcloud/api-client';
import { WebhookTestBody, webhookRoutes } from '@streamcloud/contract';
import Button from 'react-bootstrap/Button';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { UrlField } from '@/components/ui/form-fields';
import { useNotify } from '@/components/ui/notifications';
import { TitledCard } from '@/components/ui/titled-card';
import { useRouteMutation } from '@/data/route-mutation';
import { webhookKeys } from '@/data/webhooks/keys';
import { fieldsOf } from '@/lib/forms';

export const TEST_EVENT_TEXTS = {
  sent: 'The test event is on its way: its delivery shows below.',
  failed: 'The test event could not be sent.',
} as const;

const TestEventForm = z.object({ url: WebhookTestBody.shape.url });
type TestEventValues = z.infer<typeof TestEventForm>;

/** Sends a signed webhook.test event to a URL, to try a receiver. */
export function TestEventCard({ account }: { account: string | undefined }) {
  // A webhook.test event to a URL; the account's log shows its delivery.
  const send = useRouteMutation(webhookRoutes.test, {
    toRequest: (url: string) => ({ body: { url, ...(account ? { account } : {}) } }),
    invalidates: () => [webhookKeys.deliveries()],
  });
  const notify = useNotify();
  const form = useForm<TestEventValues>({ resolver: zodResolver(TestEventForm), defaultValues: { url: '' } });
  const { handleSubmit, setError } = form;
  const field = fieldsOf(form);

  const onSubmit = handleSubmit(async ({ url }) => {
    try {
      await send.mutateAsync(url);
      notify(TEST_EVENT_TEXTS.sent, 'success');
    } catch (error) {
      const refusal = isApiError(error) ? error.errors?.find((item) => item.path.endsWith('url')) : undefined;
      if (refusal) setError('url', { message: refusal.message });
      else notify(messageOr(error, TEST_EVENT_TEXTS.failed));
    }
  });

  return (
    <TitledCard title="Send a test event">
      <form
        noValidate
        onSubmit={onSubmit}
        aria-label="Send a test event"
        className="d-flex flex-wrap gap-2 align-items-start"
      >
        <div className="flex-grow-1" style={{ minWidth: '16rem' }}>
          <UrlField id="webhook-test-url" label="URL" placeholder="https://example.com/webhooks" {...field('url')} />
        </div>
        <Button type="submit" className="align-self-end mb-3" disabled={form.formState.isSubmitting}>
          Send test event
        </Button>
      </form>
    </TitledCard>
  );
}
