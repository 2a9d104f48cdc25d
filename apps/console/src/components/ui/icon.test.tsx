import { render, screen } from '@testing-library/react';
import broadcastIcon from 'bootstrap-icons/icons/broadcast.svg?raw';
import { describe, expect, it } from 'vitest';
import { Icon } from './icon';

describe('icon', () => {
  it('draws the icon file inline, sized to the text, hidden from assistive technology when decorative', () => {
    const { container } = render(
      <button type="button">
        <Icon svg={broadcastIcon} className="me-1" />
        Live
      </button>,
    );
    const svg = container.querySelector('svg');
    expect(svg?.getAttribute('aria-hidden')).toBe('true');
    expect(svg?.getAttribute('class')).toBe('bi me-1');
    expect(svg?.getAttribute('viewBox')).toBe('0 0 16 16');
    expect(svg?.getAttribute('width')).toBe('1em');
    expect(svg?.querySelector('path')?.getAttribute('d')).toMatch(/^M3\.05 3\.05/);
    expect(screen.getByRole('button').textContent).toBe('Live');
    expect(screen.getByRole('button', { name: 'Live' })).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('is an image named by its label when it alone says something', () => {
    render(<Icon svg={broadcastIcon} label="Live" />);
    const image = screen.getByRole('img', { name: 'Live' });
    expect(image.getAttribute('aria-hidden')).toBeNull();
  });
});
