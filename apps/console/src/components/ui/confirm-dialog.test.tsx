import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';

function renderDialog(show = true) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <ConfirmDialog
      show={show}
      message="Do you really want to delete stream? This cannot be undone."
      onConfirm={onConfirm}
      onCancel={onCancel}
    />,
  );
  return { onConfirm, onCancel, user: userEvent.setup() };
}

describe('confirm dialog', () => {
  it('asks its question in a dialog', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Do you really want to delete stream? This cannot be undone.');
  });

  it('answers Ok', async () => {
    const { onConfirm, onCancel, user } = renderDialog();
    await user.click(await screen.findByRole('button', { name: 'Ok' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('answers Cancel by its button, the close button or Escape', async () => {
    const { onConfirm, onCancel, user } = renderDialog();
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(3);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('shows nothing while closed', () => {
    renderDialog(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
