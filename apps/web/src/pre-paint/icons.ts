import {
  mdiAccountCircle,
  mdiAccountMultipleCheck,
  mdiAccountMultiplePlus,
  mdiAccountSearchOutline,
  mdiCertificateOutline,
  mdiChartBar,
  mdiChevronDown,
  mdiFormatListNumbered,
  mdiHome,
  mdiImageMultiple,
  mdiInformationOutline,
  mdiLogin,
  mdiMagnify,
  mdiMapOutline,
  mdiMenu,
  mdiMonitor,
  mdiPodium,
  mdiRepeat,
  mdiStar,
  mdiStarOutline,
  mdiSwapHorizontal,
  mdiTimerOutline,
  mdiTranslate,
  mdiTrophyOutline,
} from '@mdi/js';

/** The icons the pre-paint shows: the React page's, by name. */
export const PRE_PAINT_ICONS = {
  account: mdiAccountCircle,
  athlete: mdiAccountSearchOutline,
  certificate: mdiCertificateOutline,
  follow: mdiAccountMultiplePlus,
  following: mdiAccountMultipleCheck,
  chart: mdiChartBar,
  chevron: mdiChevronDown,
  home: mdiHome,
  info: mdiInformationOutline,
  list: mdiFormatListNumbered,
  login: mdiLogin,
  photos: mdiImageMultiple,
  magnify: mdiMagnify,
  map: mdiMapOutline,
  menu: mdiMenu,
  monitor: mdiMonitor,
  podium: mdiPodium,
  repeat: mdiRepeat,
  star: mdiStar,
  starOutline: mdiStarOutline,
  swap: mdiSwapHorizontal,
  timer: mdiTimerOutline,
  translate: mdiTranslate,
  trophy: mdiTrophyOutline,
};

/** A name of `PRE_PAINT_ICONS`. */
export type PrePaintIcon = keyof typeof PRE_PAINT_ICONS;

/**
 * The icons as one SVG sprite (a `<symbol>` each), a file the pre-paint's `<use>` elements point
 * into: paths compress poorly, and an image is not JavaScript to download before the page shows
 * (issue 19's 200 KB budget; 13 KB of paths against the pre-paint's 4 KB).
 */
export function prePaintSprite(): string {
  const symbols = Object.entries(PRE_PAINT_ICONS)
    .map(([id, d]) => `<symbol id="${id}" viewBox="0 0 24 24"><path d="${d}"/></symbol>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg">${symbols}</svg>`;
}
