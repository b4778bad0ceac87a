import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../lib/i18n.ts';
import { CountryField } from './country-field.tsx';

let picked = '';
function Form() {
  const [value, setValue] = useState('');
  return (
    <CountryField
      label="Country"
      value={value}
      onChange={(code) => {
        picked = code;
        setValue(code);
      }}
    />
  );
}

describe('CountryField (issue 29: "Netherlands" was cut to NE, Niger)', () => {
  beforeAll(() => {
    initI18n('en');
  });

  it('finds a country by its name in the interface language and gives its ISO code', async () => {
    for (const [lng, typed, name] of [
      ['en', 'Netherlands', 'Netherlands'],
      ['fr', 'Pays-Bas', 'Pays-Bas'],
    ] as const) {
      await i18next.changeLanguage(lng);
      const { unmount } = render(<Form />);
      await userEvent.type(screen.getByLabelText('Country'), typed);
      await userEvent.click(await screen.findByRole('option', { name }));
      expect(picked).toBe('NL');
      expect((screen.getByLabelText('Country') as HTMLInputElement).value).toBe(name);
      unmount();
    }
    // Niger is a name of its own, not what "Ne…" becomes.
    await i18next.changeLanguage('en');
    render(<Form />);
    await userEvent.type(screen.getByLabelText('Country'), 'Niger');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Niger', 'Nigeria']);
  });
});
