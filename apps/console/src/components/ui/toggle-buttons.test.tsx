import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ToggleButtons } from './toggle-buttons';

describe('ToggleButtons', () => {
  it('names the group by its legend, says which buttons are pressed, and hands the clicked value on', () => {
    const onToggle = vi.fn();
    render(
      <ToggleButtons
        legend="Preset"
        values={['a', 'b']}
        label={(value) => `Label ${value}`}
        isPressed={(value) => value === 'b'}
        title={(value) => `About ${value}`}
        onToggle={onToggle}
      />,
    );
    const group = within(screen.getByRole('group', { name: 'Preset' }));
    const [a, b] = group.getAllByRole('button');
    expect(a?.textContent).toBe('Label a');
    expect(a?.getAttribute('aria-pressed')).toBe('false');
    expect(b?.getAttribute('aria-pressed')).toBe('true');
    expect(b?.getAttribute('title')).toBe('About b');
    expect(b?.getAttribute('type')).toBe('button');
    fireEvent.click(group.getByRole('button', { name: 'Label a' }));
    expect(onToggle).toHaveBeenCalledWith('a');
  });

  it('disables every button while asked to', () => {
    render(
      <ToggleButtons
        legend="Preset"
        values={['a', 'b']}
        label={(v) => v}
        isPressed={() => false}
        onToggle={vi.fn()}
        disabled
      />,
    );
    expect(screen.getAllByRole('button').every((button) => (button as HTMLButtonElement).disabled)).toBe(true);
  });
});
