import { describe, expect, it } from 'vitest';
import { entryScriptOf, newVersionServed } from './update-banner.tsx';

const index = (entry: string) =>
  `<!doctype html><html><head><script type="module" crossorigin src="${entry}"></script></head></html>`;

describe('a new version of the web app (issue 20)', () => {
  it('reads the entry script of an index page', () => {
    expect(entryScriptOf(index('/assets/index-abc123.js'))).toBe('/assets/index-abc123.js');
    expect(entryScriptOf('<html></html>')).toBeNull();
  });

  it('tells a new bundle from the running one, and says nothing when the index cannot be read', async () => {
    const running = '/assets/index-old.js';
    expect(await newVersionServed(running, async () => index('/assets/index-new.js'))).toBe(true);
    expect(await newVersionServed(running, async () => index(running))).toBe(false);
    expect(await newVersionServed(running, () => Promise.reject(new Error('offline')))).toBe(false);
    // Development: no hashed bundle, never a banner.
    expect(await newVersionServed('/src/main.tsx', async () => index('/assets/index-new.js'))).toBe(false);
  });
});
