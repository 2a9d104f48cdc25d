import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotificationsProvider, useNotify } from './notifications';

function Trigger({ message }: { message: string }) {
  const notify = useNotify();
  return (
    <button type="button" onClick={() => notify(message)}>
      Notify
    </button>
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('notifications', () => {
  it('shows each message in an alert until it is dismissed', async () => {
    const user = userEvent.setup();
    render(
      <NotificationsProvider>
        <Trigger message="Impersonation failed" />
      </NotificationsProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Notify' }));
    await user.click(screen.getByRole('button', { name: 'Notify' }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Impersonation failed',
      'Impersonation failed',
    ]);
    const [first] = screen.getAllByRole('button', { name: 'Dismiss notification' });
    if (first) await user.click(first);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('closes a message by itself after a while', () => {
    vi.useFakeTimers();
    render(
      <NotificationsProvider timeoutMs={1000}>
        <Trigger message="Something wrong" />
      </NotificationsProvider>,
    );
    act(() => screen.getByRole('button', { name: 'Notify' }).click());
    expect(screen.getByRole('alert').textContent).toBe('Something wrong');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('needs its provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Trigger message="x" />)).toThrow('NotificationsProvider is missing');
  });
});
