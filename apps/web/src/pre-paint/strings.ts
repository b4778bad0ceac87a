/**
 * The texts the pre-paint shows, in one language (picked at build from the locale files:
 * `prePaintStrings`). `{{…}}` placeholders as in the locales.
 */
export interface PrePaintStrings {
  product: string;
  language: string;
  signIn: string;
  home: string;
  navTracking: string;
  navPhotos: string;
  reportList: string;
  search: string;
  searchPlaceholder: string;
  rowsOne: string;
  rowsOther: string;
  jumpLabel: string;
  jumpRank: string;
  jumpGo: string;
  details: string;
  favorites: string;
  favoritesCount: string;
  leaders: string;
  stats: string;
  clm: string;
  scroller: string;
  map: string;
  tracking: string;
  results: string;
  series: string;
  laps: string;
  legs: string;
  relayLegs: string;
  provisional: string;
  protestOpen: string;
  official: string;
  moreViews: string;
}

/** A namespace's JSON, as read from `src/locales/{lng}/{ns}.json`. */
type Locale = object;

/** The pre-paint's texts of one language from its locale namespaces (common, results, views). */
export function prePaintStrings(ns: { common: Locale; results: Locale; views: Locale }): PrePaintStrings {
  const c = ns.common as Record<string, Record<string, string>> & { product: string };
  // (JSON namespaces: the keys below are checked by the tests, which build from the real files.)
  const r = ns.results as unknown as Record<string, string>;
  const v = ns.views as unknown as Record<string, string>;
  return {
    product: c.product,
    language: c.shell!.language!,
    signIn: c.shell!.signIn!,
    home: c.nav!.home!,
    navTracking: c.nav!.tracking!,
    navPhotos: c.nav!.photos!,
    reportList: r.reportList!,
    search: r.search!,
    searchPlaceholder: r.searchPlaceholder!,
    rowsOne: r.rowCount_one!,
    rowsOther: r.rowCount_other!,
    jumpLabel: r.jumpLabel!,
    jumpRank: r.jumpRank!,
    jumpGo: r.jumpGo!,
    details: r.details!,
    favorites: v.favorites!,
    favoritesCount: v.favoritesCount_other!,
    leaders: v.leaders!,
    stats: v.stats!,
    clm: v.clm!,
    scroller: v.scroller!,
    map: v.map!,
    tracking: v.tracking!,
    results: v.results!,
    series: v.series!,
    laps: v.laps!,
    legs: v.legs!,
    relayLegs: v.relayLegs!,
    provisional: v.provisional!,
    protestOpen: v.protestOpen!,
    moreViews: v.moreViews!,
    official: v.official!,
  };
}
