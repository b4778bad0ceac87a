import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize.ts';

describe('sanitizeHtml', () => {
  it('removes scripts, handlers and javascript: URLs, keeps formatting', () => {
    const out = sanitizeHtml(
      '<h2 onclick="x()">Hi</h2><script>alert(1)</script><img src=x onerror="alert(1)"><a href="javascript:alert(1)">a</a><p><b>bold</b></p><iframe src="https://evil"></iframe>',
    );
    expect(out).not.toMatch(/script|onclick|onerror|javascript:|iframe/i);
    expect(out).toContain('<h2>Hi</h2>');
    expect(out).toContain('<p><b>bold</b></p>');
  });

  it('makes new-tab links safe', () => {
    expect(sanitizeHtml('<a href="https://x.test" target="_top">x</a>')).toBe(
      '<a href="https://x.test" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });
});
