import { describe, expect, it } from 'vitest';
import enCommon from '../locales/en/common.json';
import enLive from '../locales/en/live.json';
import frCommon from '../locales/fr/common.json';
import frLive from '../locales/fr/live.json';
import { buildFollowedPrePaint, followedPrePaintStrings } from './followed-pre-paint.ts';

const strings = {
  en: followedPrePaintStrings({ common: enCommon, live: enLive }),
  fr: followedPrePaintStrings({ common: frCommon, live: frLive }),
};
const paint = (lng: 'en' | 'fr', following: boolean) =>
  buildFollowedPrePaint(document, {
    lng,
    strings: strings[lng],
    sprite: '/assets/pre-paint-icons.svg',
    logo: '/favicon.svg',
    following,
  });

describe('/genericTracking drawn before React', () => {
  it('draws the bar, the breadcrumbs, the title and how to follow someone, in either language', () => {
    expect(strings.en.title).toBe('Athletes followed');
    expect(strings.fr.title).toBe('Athlètes suivis');
    for (const lng of ['en', 'fr'] as const) {
      const root = paint(lng, false);
      expect(root.id).toBe('pre-paint');
      expect(root.getAttribute('aria-hidden')).toBe('true');
      expect(root.querySelector('header')?.textContent).toBe(`${strings[lng].product}${lng.toUpperCase()}`);
      expect([...root.querySelectorAll('ol li')].map((li) => li.textContent)).toEqual([
        strings[lng].home,
        strings[lng].title,
      ]);
      expect(root.querySelector('h1')?.textContent).toBe(strings[lng].title);
      expect(root.querySelector('main p')?.textContent).toBe(strings[lng].none);
      expect(strings[lng].none).not.toMatch(/follow\.|\{\{/);
    }
  });

  it('leaves the message out when this device follows someone (their cards come there)', () => {
    const root = paint('en', true);
    expect(root.querySelector('h1')?.textContent).toBe('Athletes followed');
    expect(root.querySelector('main p')).toBeNull();
  });
});
