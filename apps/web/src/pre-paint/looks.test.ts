import { getContrastRatio } from '@mui/material';
import { describe, expect, it } from 'vitest';
import { textOn as themeTextOn } from '../lib/theme.ts';
import { applyLook, lighten, textOn } from './looks.ts';

describe('pre-paint looks (spec §9 ui)', () => {
  it('chooses the text on the brand colour as the theme does', () => {
    for (const colour of ['#39aade', '#d2461e', '#0b6a9a', '#ffeb3b'])
      expect(textOn(colour)).toBe(themeTextOn(colour));
    expect(getContrastRatio(textOn('#d2461e'), '#d2461e')).toBeGreaterThanOrEqual(4.5);
  });

  it("lightens as MUI's progress track", () => {
    expect(lighten('#39aade', 0.62)).toBe('#b4dff2');
    expect(lighten('#000000', 0.5)).toBe('#808080');
  });

  it('swaps the default look for cr: colours, text on the bar, the product name', () => {
    const root = document.createElement('div');
    const style = document.createElement('style');
    style.textContent =
      '.bar{background:#39aade;color:#0a1f2b}.link{color:#0b6a9a}.track{background:#b3def2}';
    const name = document.createElement('span');
    name.textContent = 'Tempora';
    root.append(style, name);
    applyLook(root, 'acn');
    expect(style.textContent).toContain('#39aade');
    applyLook(root, 'cr');
    expect(style.textContent).toBe(
      `.bar{background:#d2461e;color:#fff}.link{color:#a3300f}.track{background:${lighten('#d2461e', 0.62)}}`,
    );
    expect(name.textContent).toBe('Tempora Chrono');
  });
});
