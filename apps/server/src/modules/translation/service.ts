import crypto from 'node:crypto';
import labelsFile from './labels.json' with { type: 'json' };

/** UI variants (spec §9) and languages the labels exist for. */
export const translationUis = ['acn', 'cr'] as const;
export const translationLanguages = ['en', 'fr'] as const;

type Labels = Record<string, string>;
const namespaces = labelsFile as Record<string, Record<string, Labels>>;

/** One namespace's labels in one language, with a strong ETag over its bytes; null when unknown. */
export interface LabelSet {
  body: string;
  etag: string;
}

const cache = new Map<string, LabelSet | null>();

/**
 * The labels of `ns` in `lng` for UI variant `ui` (spec §3 "a map from key to text, one per
 * language"). Both variants share the labels today; a variant's overrides would go under
 * `{ns}@{ui}` in labels.json.
 */
export function labelsFor(ui: string, ns: string, lng: string): LabelSet | null {
  const key = `${ui}/${ns}/${lng}`;
  if (cache.has(key)) return cache.get(key) ?? null;
  const base = namespaces[ns]?.[lng];
  const override = namespaces[`${ns}@${ui}`]?.[lng];
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
