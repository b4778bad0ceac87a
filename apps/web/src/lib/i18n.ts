import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { urlParam } from './url-params.ts';

export { urlParam } from './url-params.ts';

/** Languages of the product (spec §1, §9); French is the default. */
export const LANGUAGES = ['fr', 'en'] as const;
export type Lng = (typeof LANGUAGES)[number];
export const DEFAULT_LNG: Lng = 'fr';
const STORAGE_KEY = 'lng';

/**
 * Every `locales/{lng}/{namespace}.json` is bundled, one chunk per language (the file name is the
 * namespace): a page downloads only the language it shows (issue 19: JavaScript budget).
 */
const bundles: Record<Lng, () => Promise<{ default: Record<string, Record<string, unknown>> }>> = {
  en: () => import('./locales-en.ts'),
  fr: () => import('./locales-fr.ts'),
};
const resources: Partial<Record<Lng, Record<string, Record<string, unknown>>>> = {};

/** Loads a language's namespaces (once); i18next gets them when it is already initialised. */
export async function loadLanguage(lng: Lng): Promise<void> {
  if (resources[lng]) return;
  const files = (await bundles[lng]()).default;
  const namespaces: Record<string, Record<string, unknown>> = {};
  for (const [file, data] of Object.entries(files)) {
    const match = /locales\/\w+\/([\w-]+)\.json$/.exec(file);
    if (match) namespaces[match[1]!] = data;
  }
  resources[lng] = namespaces;
  if (i18next.isInitialized) {
    for (const [ns, data] of Object.entries(namespaces)) i18next.addResourceBundle(lng, ns, data, true, true);
  }
}

const isLng = (value: string | null | undefined): value is Lng =>
  !!value && (LANGUAGES as readonly string[]).includes(value.toLowerCase());

/**
 * The language to start with (spec §4): URL parameter `lng`, then the stored value, then the
 * browser language, else `fr` (spec §9).
 */
export function initialLanguage(
  location: Pick<Location, 'search' | 'hash'> = window.location,
  storage: Pick<Storage, 'getItem'> = window.localStorage,
  browser: readonly string[] = navigator.languages ?? [navigator.language],
): Lng {
  const fromUrl = urlParam('lng', location);
  if (isLng(fromUrl)) return fromUrl.toLowerCase() as Lng;
  const stored = storage.getItem(STORAGE_KEY);
  if (isLng(stored)) return stored.toLowerCase() as Lng;
  for (const tag of browser) {
    const base = tag.slice(0, 2).toLowerCase();
    if (isLng(base)) return base;
  }
  return DEFAULT_LNG;
}

/** Changes the language and stores it lowercased (spec §3 `lng`). */
export async function setLanguage(lng: Lng): Promise<void> {
  await loadLanguage(lng);
  window.localStorage.setItem(STORAGE_KEY, lng.toLowerCase());
  document.documentElement.lang = lng;
  await i18next.changeLanguage(lng);
}

/**
 * Initialises i18next once with the namespaces loaded so far (`loadLanguage` first: main.tsx loads
 * the initial language beside the environment configuration).
 */
export function initI18n(lng: Lng = initialLanguage()): i18n {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources: resources as Record<string, Record<string, Record<string, unknown>>>,
      lng,
      fallbackLng: DEFAULT_LNG,
      supportedLngs: [...LANGUAGES],
      ns: Object.keys(resources[lng] ?? resources.fr ?? resources.en ?? { common: {} }),
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
  }
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
  return i18next;
}
