import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { StreamsScreen } from '@/features/streams/components/streams-screen';
import { HOME } from '../paths';

/** /streams; `?refresh=…` reloads the list (and everything else cached), then drops the parameter. */
export function StreamsRoute() {
  const [params] = useSearchParams();
  const refresh = params.has('refresh');
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    if (!refresh) return;
    let left = false;
    void queryClient.invalidateQueries().finally(() => {
      if (!left) navigate(HOME, { replace: true });
    });
    return () => {
      left = true;
    };
  }, [refresh, queryClient, navigate]);

  return <StreamsScreen />;
}
