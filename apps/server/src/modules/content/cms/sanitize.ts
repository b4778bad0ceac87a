import { createRequire } from 'node:module';
import type { DOMPurify } from 'dompurify';

/**
 * DOMPurify on a jsdom window, made at the first page sanitised: loading jsdom costs about a
 * second of CPU (its interfaces) and 50 MB, which every start paid — the first spectator after a
 * restart waited on it (issue 41) — while most processes never sanitise a page.
 */
let purifier: DOMPurify | undefined;
function purify(): DOMPurify {
  if (purifier) return purifier;
  const require = createRequire(import.meta.url);
  const { JSDOM } = require('jsdom') as typeof import('jsdom');
  const createDOMPurify = require('dompurify') as typeof import('dompurify').default;
  const made = createDOMPurify(new JSDOM('').window as never);
  // Links that open elsewhere must not hand the opener over (no reverse tabnabbing).
  made.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.getAttribute('target')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  purifier = made;
  return made;
}

const CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'style',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'iframe',
    'object',
    'embed',
    'svg',
    'math',
  ],
  FORBID_ATTR: ['style'],
  ADD_ATTR: ['target'],
};

const cache = new Map<string, string>();
const CACHE_MAX = 500;

/**
 * Sanitises organiser HTML for output (issue 8: "rich content sanitised on output"): DOMPurify's
 * HTML profile without scripts, event handlers, `javascript:` URLs, styles, forms or frames.
 * Results are memoised (a page is read far more often than written).
 */
export function sanitizeHtml(html: string): string {
  if (!html) return '';
  const hit = cache.get(html);
  if (hit !== undefined) return hit;
  const clean = purify().sanitize(html, CONFIG) as unknown as string;
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(html, clean);
  return clean;
}
