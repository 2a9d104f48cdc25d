import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ChoiceField, UrlField } from './form-fields';

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

describe('ChoiceField', () => {
  it('lists the values with their labels and hands on the one chosen', () => {
    const onChoose = vi.fn();
    render(
      <ChoiceField
        id="mode"
        label="Mode"
        values={['ALL', 'NONE'] as const}
        optionLabel={(value) => value.toLowerCase()}
        value="ALL"
        onChoose={onChoose}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Mode' }) as HTMLSelectElement;
    expect([...select.options].map((option) => [option.value, option.text])).toEqual([
      ['ALL', 'all'],
      ['NONE', 'none'],
    ]);
    fireEvent.change(select, { target: { value: 'NONE' } });
    expect(onChoose).toHaveBeenCalledWith('NONE');
  });

  it("offers an empty first choice with `none`, handed on as ''", () => {
    const onChoose = vi.fn();
    render(<ChoiceField id="codec" label="Codec" none="Any" values={['H264']} value="H264" onChoose={onChoose} />);
    const select = screen.getByRole('combobox', { name: 'Codec' }) as HTMLSelectElement;
    expect(select.options[0]?.text).toBe('Any');
    fireEvent.change(select, { target: { value: '' } });
    expect(onChoose).toHaveBeenCalledWith('');
  });
});
