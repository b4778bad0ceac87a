import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { formatCount } from './intl.ts';
import { urlParam } from './url-params.ts';

export { urlParam } from './url-params.ts';

/** Languages of the product (spec §1, §9); French is the default. */
export const LANGUAGES = ['fr', 'en'] as const;
export type Lng = (typeof LANGUAGES)[number];
export const DEFAULT_LNG: Lng = 'fr';
const STORAGE_KEY = 'lng';

/**
 * The namespaces of the public pages (`locales/{lng}/{namespace}.json`) come in one chunk per
 * language, loaded before the first render; every other namespace (the organiser side: console,
 * confirmation, deposits, …) is a chunk of its own, loaded when a component asks for it
 * (`useTranslation('console')` suspends until then). Issue 19: the JavaScript of a public page.
 */
export const PUBLIC_NAMESPACES = ['common', 'content', 'live', 'results', 'views'] as const;
type Namespaces = Record<string, Record<string, unknown>>;
const bundles: Record<Lng, () => Promise<{ default: Record<string, Record<string, unknown>> }>> = {
  en: () => import('./locales-en.ts'),
  fr: () => import('./locales-fr.ts'),
};
/**
 * One loader per organiser namespace and language, keyed `./{lng}/{ns}.json` (the public ones are
 * in `bundles`): the web's own, and the namespaces the server prints too, whose one source is
 * `packages/contracts/src/locales` (issue 30, see its `index.ts`) — only those the web translates
 * with (`statuses` is read by `labelledCell`, `inscriptions` by the translation endpoint's
 * clients): a file also imported statically would become a chunk of its own.
 */
const lazyNamespaces: Record<string, () => Promise<Record<string, unknown>>> = {
  ...import.meta.glob<Record<string, unknown>>(
    ['./*/*.json', '!./*/{common,content,live,results,views}.json'],
    { base: '../locales', import: 'default' },
  ),
  ...import.meta.glob<Record<string, unknown>>('./*/{confirmation,participants}.json', {
    base: '../../../../packages/contracts/src/locales',
    import: 'default',
  }),
};
const resources: Partial<Record<Lng, Namespaces>> = {};
/** Namespaces preloaded before their language's public ones (`preloadNamespaces`). */
const early: Partial<Record<Lng, Namespaces>> = {};

const namespaceOf = (file: string) => /locales\/\w+\/([\w-]+)\.json$/.exec(file)?.[1];

/**
 * Loads a language's public namespaces (once; `all`: every namespace, for tests that render
 * organiser components synchronously); i18next gets them when it is already initialised (the
 * organiser namespaces in use follow through the backend when the language changes).
 */
export async function loadLanguage(lng: Lng, { all = false } = {}): Promise<void> {
  if (!resources[lng]) {
    const files = (await bundles[lng]()).default;
    const namespaces: Namespaces = {};
    for (const [file, data] of Object.entries(files)) {
      const ns = namespaceOf(file);
      if (ns) namespaces[ns] = data;
    }
    resources[lng] = { ...early[lng], ...namespaces };
    if (i18next.isInitialized) {
      for (const [ns, data] of Object.entries(namespaces))
        i18next.addResourceBundle(lng, ns, data, true, true);
    }
  }
  if (all) {
    const loaded = resources[lng]!;
    await Promise.all(
      Object.entries(lazyNamespaces)
        .filter(([file]) => file.startsWith(`./${lng}/`))
        .map(async ([file, load]) => {
          const ns = file.slice(lng.length + 3, -5);
          if (!loaded[ns]) loaded[ns] = await load();
        }),
    );
  }
}

/**
 * Starts loading organiser namespaces a public component needs (the tracking card's certificate
 * button: `exports`) in the language starting up, so that component does not suspend its page
 * when it first shows; called when its module loads, before or after i18next starts.
 */
export function preloadNamespaces(...namespaces: string[]): void {
  const lng = i18next.isInitialized ? (i18next.language as Lng) : initialLanguage();
  for (const ns of namespaces) {
    const load = lazyNamespaces[`./${lng}/${ns}.json`];
    if (!load) continue;
    void load().then(
      (data) => {
        const loaded = resources[lng];
        if (loaded) loaded[ns] ??= data;
        else early[lng] = { ...early[lng], [ns]: data };
        if (i18next.isInitialized && !i18next.hasResourceBundle(lng, ns))
          i18next.addResourceBundle(lng, ns, data, true, true);
      },
      () => undefined, // the component asks again through the backend
    );
  }
}

/**
 * i18next's backend for the organiser namespaces: a namespace of a language not loaded yet
 * (`loadLanguage`) answers nothing (neither an error nor data), so i18next asks again once it is.
 */
const lazyBackend = {
  type: 'backend' as const,
  init() {},
  read(lng: string, ns: string, callback: (error: unknown, data: Record<string, unknown> | null) => void) {
    const loaded = resources[lng as Lng];
    if (!loaded) return callback(null, null);
    if (loaded[ns]) return callback(null, loaded[ns]);
    const load = lazyNamespaces[`./${lng}/${ns}.json`];
    if (!load) return callback(null, null);
    load().then(
      (data) => callback(null, data),
      (error: unknown) => callback(error, null),
    );
  },
};

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
 * the initial language beside the environment configuration); `asked` once started changes to it.
 */
export function initI18n(asked?: Lng): i18n {
  const lng = asked ?? initialLanguage();
  if (i18next.isInitialized) {
    // Asked for another language once started (tests sharing one module graph per worker): that
    // language, its namespaces being loaded already.
    if (asked) void i18next.changeLanguage(asked);
  } else {
    void i18next
      .use(lazyBackend)
      .use(initReactI18next)
      .init({
        resources: resources as Record<string, Namespaces>,
        partialBundledLanguages: true,
        lng,
        fallbackLng: DEFAULT_LNG,
        supportedLngs: [...LANGUAGES],
        ns: Object.keys(resources[lng] ?? resources.fr ?? resources.en ?? { common: {} }),
        defaultNS: 'common',
        interpolation: { escapeValue: false },
        initAsync: false,
        returnNull: false,
      });
    // `{{count, number}}` without Intl for whole numbers (lib/intl.ts: a page's first formatter
    // costs ICU's data load, 20–65 ms at once, in the first render).
    i18next.services.formatter?.add('number', (value, lng) => formatCount(Number(value), lng));
  }
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
  return i18next;
}
