import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UrlField } from './form-fields';

describe('UrlField', () => {
  it('is a labelled URL input without autofill, its error bound to it', () => {
    render(<UrlField id="callback" label="Callback URI" error="URL must be an http or https URL" />);
    const input = screen.getByRole('textbox', { name: 'Callback URI' }) as HTMLInputElement;
    expect(input.type).toBe('url');
    expect(input.autocomplete).toBe('off');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('textbox', { description: 'URL must be an http or https URL' })).toBe(input);
  });
});
