import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessagesCard } from './messages-card';

describe('messages card', () => {
  it('lists the messages newest first, each level told by a named icon', () => {
    render(
      <MessagesCard
        messages={[
          { at: '2025-01-01T00:00:00.000Z', level: 'info', text: 'Stream created' },
          { at: '2025-01-01T00:01:00.000Z', level: 'warning', text: 'No node is available' },
          { at: '2025-01-01T00:02:00.000Z', level: 'error', text: 'Push refused' },
        ]}
      />,
    );
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('img').getAttribute('aria-label'))).toEqual([
      'Error',
      'Warning',
      'Info',
    ]);
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Push refused'),
      expect.stringContaining('No node is available'),
      expect.stringContaining('Stream created'),
    ]);
  });
});
