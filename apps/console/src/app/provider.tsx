import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NotificationsProvider } from '@/components/ui/notifications';
import type { AppServices } from '@/lib/services';
import { ServicesProvider } from '@/lib/services-context';

export function AppProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return (
    <QueryClientProvider client={services.queryClient}>
      <ServicesProvider api={services.api} auth={services.auth}>
        <NotificationsProvider>{children}</NotificationsProvider>
      </ServicesProvider>
    </QueryClientProvider>
  );
}
