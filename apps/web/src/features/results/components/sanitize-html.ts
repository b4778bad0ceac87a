import DOMPurify from 'dompurify';

/**
 * Sanitised html of an html cell (spec §3): DOMPurify, so no script or handler ever runs. In its
 * own chunk, loaded by the first html cell (most reports have none: issue 19 budget).
 */
export function sanitizeCellHtml(value: unknown): string {
  return DOMPurify.sanitize(String(value ?? ''), { FORBID_TAGS: ['style', 'form', 'input'] });
}
