import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

/**
 * Issue 29: text that looks like an i18n key rather than words — a dotted or namespaced
 * identifier (`nav.exports`, `exports:nav.certificate`) or exactly the name of a leaf key of the
 * locale files that translates to something else ("title"). Shared by the console specs.
 */

/** The names of the leaf keys of every namespace, with what they translate to in each language. */
function leafKeys(): Map<string, Set<string>> {
  // The web's own namespaces, and those it shares with the server (issue 30).
  const dirs = ['../src/locales', '../../../packages/contracts/src/locales'].map((d) =>
    path.resolve(import.meta.dirname, d),
  );
  const keys = new Map<string, Set<string>>();
  const walk = (node: unknown, prefix: string) => {
    if (typeof node === 'string') {
      const last = prefix.split('.').at(-1)!;
      for (const name of [prefix, last]) {
        const values = keys.get(name) ?? new Set<string>();
        values.add(node);
        keys.set(name, values);
      }
      return;
    }
    if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) walk(v, prefix ? `${prefix}.${k}` : k);
  };
  for (const dir of dirs)
    for (const lng of fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()))
      for (const file of fs.readdirSync(path.join(dir, lng.name)))
        walk(JSON.parse(fs.readFileSync(path.join(dir, lng.name, file), 'utf8')), '');
  return keys;
}
const KEYS = leafKeys();
const DOTTED = /^[a-z][A-Za-z0-9_-]*(:[A-Za-z0-9_.-]+|(\.[A-Za-z0-9_-]+)+)$/;

/** Every visible text node (and tab/button accessible name) that looks like an i18n key. */
export async function keyLikeTexts(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest('script,style,noscript')) continue;
      const text = (n.textContent ?? '').trim();
      if (text) out.push(text);
    }
    for (const el of document.querySelectorAll('[aria-label],[placeholder],[title]'))
      for (const a of ['aria-label', 'placeholder', 'title']) {
        const v = el.getAttribute(a)?.trim();
        if (v) out.push(v);
      }
    return out;
  });
  return [
    ...new Set(
      texts.filter((text) => {
        if (DOTTED.test(text) && !/^\d|\.(com|org|be|fr|json|csv|pdf|xlsx|gpx)$/.test(text)) return true;
        // A bare leaf name shown as is ("title"), when it is not also a translation of itself.
        const values = KEYS.get(text);
        return !!values && /^[a-z][A-Za-z]+$/.test(text) && !values.has(text);
      }),
    ),
  ];
}
