import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { HOME } from '../paths';
import { PendingScreen } from './pending';

/** /streams; `?refresh=…` reloads everything cached, then drops the parameter. */
export function StreamsRoute() {
  const [params] = useSearchParams();
  const refresh = params.has('refresh');
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    if (!refresh) return;
    void queryClient.invalidateQueries();
    navigate(HOME, { replace: true });
  }, [refresh, queryClient, navigate]);

  return <PendingScreen title="Streams" />;
}
