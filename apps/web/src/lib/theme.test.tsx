import { Chip, getContrastRatio, ThemeProvider } from '@mui/material';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { brandingFor } from './branding-variants.ts';
import { createAppTheme } from './theme.ts';

/** The rendered text and background colours of an element, as the browser resolves them. */
function colours(element: HTMLElement) {
  const style = getComputedStyle(element);
  return { color: style.color, background: style.backgroundColor };
}

describe('text on the brand colour reaches WCAG AA (issue 27)', () => {
  for (const ui of ['acn', 'cr'] as const) {
    it(`a filled primary chip ("On course") reads at 4.5:1, an outlined one too (${ui})`, () => {
      render(
        <ThemeProvider theme={createAppTheme(brandingFor(ui))}>
          <Chip label="On course" color="primary" />
          <Chip label="Outlined" color="primary" variant="outlined" />
        </ThemeProvider>,
      );
      const chip = colours(screen.getByText('On course').parentElement!);
      expect(getContrastRatio(chip.color, chip.background)).toBeGreaterThanOrEqual(4.5);
      // Text in the primary colour on white takes the darker tone.
      const outlined = colours(screen.getByText('Outlined').parentElement!);
      expect(getContrastRatio(outlined.color, '#fff')).toBeGreaterThanOrEqual(4.5);
    });
  }
});
