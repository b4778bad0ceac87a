import { type Bilingual, bilingual, type LabelLng, labelLanguages, sideBySide } from './bilingual.ts';
import confirmationEn from './en/confirmation.json' with { type: 'json' };
import correctionsEn from './en/corrections.json' with { type: 'json' };
import inscriptionsEn from './en/inscriptions.json' with { type: 'json' };
import mailsEn from './en/mails.json' with { type: 'json' };
import mydataEn from './en/mydata.json' with { type: 'json' };
import participantsEn from './en/participants.json' with { type: 'json' };
import printingEn from './en/printing.json' with { type: 'json' };
import receiptsEn from './en/receipts.json' with { type: 'json' };
import statusesEn from './en/statuses.json' with { type: 'json' };
import confirmationFr from './fr/confirmation.json' with { type: 'json' };
import correctionsFr from './fr/corrections.json' with { type: 'json' };
import inscriptionsFr from './fr/inscriptions.json' with { type: 'json' };
import mailsFr from './fr/mails.json' with { type: 'json' };
import mydataFr from './fr/mydata.json' with { type: 'json' };
import participantsFr from './fr/participants.json' with { type: 'json' };
import printingFr from './fr/printing.json' with { type: 'json' };
import receiptsFr from './fr/receipts.json' with { type: 'json' };
import statusesFr from './fr/statuses.json' with { type: 'json' };

export { type Bilingual, bilingual, type LabelLng, labelLanguages, sideBySide };

/**
 * The one source of the words both sides show (issue 30, "one label source"): the i18next
 * namespaces in `locales/{en,fr}/<ns>.json` that the server prints as well as the web. The web
 * loads them lazily like its own namespaces (apps/web `lib/i18n.ts`); the server's translation
 * endpoint serves them (`flatLabels`); the documents and exports the server makes read their words
 * through `labelTable` (`confirmation-labels.ts`, `import-labels.ts`; `status-labels.ts` imports
 * its `statuses` files alone, being part of the public pages; `printing`: the words of the result
 * lists' PDF only the server prints; `mails`: the identity, invitation, deposit and contact mails;
 * `receipts`: the words of the receipt and invoice PDFs; `mydata`: the runner's data PDF, issue 40). A text is written once:
 * a namespace reuses another's with i18next nesting, `$t(participants:fields.bib)`, which i18next
 * resolves in the web and `flatLabels` resolves on the server. Namespaces only the web shows stay
 * in apps/web/src/locales; move one here when the server starts printing it.
 */

const enNamespaces = {
  confirmation: confirmationEn,
  corrections: correctionsEn,
  inscriptions: inscriptionsEn,
  mails: mailsEn,
  mydata: mydataEn,
  participants: participantsEn,
  printing: printingEn,
  receipts: receiptsEn,
  statuses: statusesEn,
};
export type SharedNamespaces = typeof enNamespaces;

/** Each shared namespace's JSON, by language (the English files give the types). */
export const sharedLocales: Record<LabelLng, SharedNamespaces> = {
  en: enNamespaces,
  fr: {
    confirmation: confirmationFr,
    corrections: correctionsFr,
    inscriptions: inscriptionsFr,
    mails: mailsFr,
    mydata: mydataFr,
    participants: participantsFr,
    printing: printingFr,
    receipts: receiptsFr,
    statuses: statusesFr,
  },
};

/**
 * A group of keys in both languages, picked by the same path in each:
 * `labelTable((l) => l.confirmation.status)` → `{ uploaded: { en: 'Uploaded', fr: 'Reçu' }, … }`.
 * A key missing in one language falls back to the English text.
 */
export function labelTable<K extends string>(
  pick: (namespaces: SharedNamespaces) => Record<K, string>,
): Record<K, Bilingual> {
  return bilingual(pick(sharedLocales.en), pick(sharedLocales.fr));
}

const flatten = (node: unknown, prefix: string, into: Record<string, string>) => {
  if (typeof node === 'string') into[prefix] = node;
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) flatten(value, prefix ? `${prefix}.${key}` : key, into);
  return into;
};

const isNamespace = (ns: string): ns is keyof SharedNamespaces => Object.hasOwn(enNamespaces, ns);
const isLng = (lng: string): lng is LabelLng => (labelLanguages as readonly string[]).includes(lng);

/**
 * A shared namespace in `lng` as a flat key → text map (nested keys joined with `.`, as i18next
 * reads them), its `$t(ns:key)` references replaced by the text they name; null when either is
 * unknown. What the translation endpoint serves (spec §3 "a map from key to text").
 */
export function flatLabels(ns: string, lng: string): Record<string, string> | null {
  if (!isNamespace(ns) || !isLng(lng)) return null;
  const labels = flatten(sharedLocales[lng][ns], '', {});
  for (const [key, text] of Object.entries(labels)) labels[key] = resolveNesting(text, lng);
  return labels;
}

/** Replaces `$t(ns:key)` by that key's text (one level, as the shared files use it). */
function resolveNesting(text: string, lng: LabelLng): string {
  return text.replace(/\$t\(([\w-]+):([\w.-]+)\)/g, (whole, ns: string, key: string) => {
    if (!isNamespace(ns)) return whole;
    const found = key
      .split('.')
      .reduce<unknown>(
        (node, part) =>
          node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined,
        sharedLocales[lng][ns],
      );
    return typeof found === 'string' ? found : whole;
  });
}

/** A text with its i18next placeholders (`{{name}}`) filled in; an unknown one becomes empty. */
export function interpolate(text: string, values: Record<string, string | number | undefined>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) =>
    Object.hasOwn(values, key) ? String(values[key] ?? '') : '',
  );
}
