import { describe, expect, it } from 'vitest';
import enCommon from '../locales/en/common.json';
import enContent from '../locales/en/content.json';
import frCommon from '../locales/fr/common.json';
import frContent from '../locales/fr/content.json';
import { buildContentPrePaint, contentPrePaintStrings } from './content-pre-paint.ts';

const strings = {
  en: contentPrePaintStrings({ common: enCommon, content: enContent }),
  fr: contentPrePaintStrings({ common: frCommon, content: frContent }),
};
const XSS = '<img src=x onerror="window.__xss=1">Run';
const event = {
  name: `${XSS} City`,
  status: 'live' as const,
  startDate: '2026-05-31',
  endDate: '2026-05-31',
  place: 'Brussels',
  branding: { color: '#aa0000', tagline: 'Run the city', bannerUrl: null, logoUrl: null },
};
const paint = (lng: 'en' | 'fr', e?: typeof event, width = 390) =>
  buildContentPrePaint(document, {
    event: e as never,
    lng,
    strings: strings[lng],
    sprite: '/assets/pre-paint-icons.svg',
    logo: '/favicon.svg',
    width,
    pinned: false,
  });

describe('the home pages drawn before React', () => {
  it('draws the home page: title, the line under it, the search field, in either language', () => {
    for (const lng of ['en', 'fr'] as const) {
      const root = paint(lng);
      expect(root.id).toBe('pre-paint');
      expect(root.getAttribute('aria-hidden')).toBe('true');
      expect(root.querySelector('h1')?.textContent).toBe(strings[lng].homeTitle);
      expect(root.querySelector('.pp-main p')?.textContent).toBe(strings[lng].homeSubtitle);
      expect(root.querySelector('.pp-search label')?.textContent).toBe(strings[lng].homeSearch);
      expect(root.querySelector('.pp-search span')?.textContent).toBe(strings[lng].homeSearchHint);
      expect(root.querySelector('.pp-dbar .pp-title')?.textContent).toBe(strings[lng].product);
    }
    expect(strings.fr.homeTitle).not.toBe(strings.en.homeTitle);
  });

  it("draws an event's home: breadcrumbs, its name as text (never markup), status, dates, place, tagline", () => {
    const root = paint('fr', event);
    expect(root.querySelector('h1')?.textContent).toBe(event.name);
    expect(root.querySelector('img[onerror]')).toBeNull();
    expect([...root.querySelectorAll('ol li')].map((li) => li.textContent)).toEqual([
      strings.fr.home,
      event.name,
    ]);
    const line = root.querySelector('.pp-line')?.textContent ?? '';
    expect(line).toContain(strings.fr.status.live);
    expect(line).toContain('31 mai 2026');
    expect(line).toContain('· Brussels');
    expect(root.querySelector('.pp-tag')?.textContent).toBe('Run the city');
    expect((root.querySelector('.pp-paper') as HTMLElement).style.borderTopColor).toBe('rgb(170, 0, 0)');
  });

  it('draws the rail from 900 px and the menu button below, as the default layout does', () => {
    expect(paint('en', undefined, 390).querySelector('.pp-rail')).toBeNull();
    expect(paint('en', undefined, 390).querySelector('.pp-menu')).not.toBeNull();
    expect(paint('en', undefined, 1280).querySelector('.pp-rail')).not.toBeNull();
  });
});
