import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ColumnHeaders } from './column-headers';

describe('ColumnHeaders', () => {
  it('names every column as a column header, hides a visually hidden one from the eye only, and leaves out false', () => {
    render(
      <table>
        <ColumnHeaders columns={['Name', false, 'Status', { hidden: 'Actions' }]} />
      </table>,
    );
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Name', 'Status', 'Actions']);
    expect(headers.every((header) => header.getAttribute('scope') === 'col')).toBe(true);
    expect(screen.getByText('Actions').className).toBe('visually-hidden');
  });
});
