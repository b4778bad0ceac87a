import crypto from 'node:crypto';
import { flatLabels, labelLanguages } from '@tempora/contracts/locales';

/** UI variants (spec §9) and languages the labels exist for. */
export const translationUis = ['acn', 'cr'] as const;
export const translationLanguages = labelLanguages;

/** One namespace's labels in one language, with a strong ETag over its bytes; null when unknown. */
export interface LabelSet {
  body: string;
  etag: string;
}

const cache = new Map<string, LabelSet | null>();

/**
 * The labels of `ns` in `lng` for UI variant `ui` (spec §3 "a map from key to text, one per
 * language"): the shared namespaces of `@tempora/contracts/locales` (issue 30: the words the web
 * shows, defined once there), flattened to `key.sub` → text. Both variants share the labels today;
 * a variant's overrides would be a namespace `{ns}@{ui}` there, merged over the base.
 */
export function labelsFor(ui: string, ns: string, lng: string): LabelSet | null {
  const key = `${ui}/${ns}/${lng}`;
  if (cache.has(key)) return cache.get(key) ?? null;
  const base = flatLabels(ns, lng);
  const override = flatLabels(`${ns}@${ui}`, lng);
  const labels = base ? { ...base, ...override } : null;
  const set = labels
    ? (() => {
        const body = JSON.stringify(labels);
        return {
          body,
          etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
        };
      })()
    : null;
  cache.set(key, set);
  return set;
}
