import type { AthleteCard } from '@tempora/contracts';
import { describe, expect, it } from 'vitest';
import enCommon from '../locales/en/common.json';
import enExports from '../locales/en/exports.json';
import enLive from '../locales/en/live.json';
import frCommon from '../locales/fr/common.json';
import frExports from '../locales/fr/exports.json';
import frLive from '../locales/fr/live.json';
import { buildTrackingPrePaint, trackingPrePaintStrings } from './tracking-pre-paint.ts';

const strings = {
  en: trackingPrePaintStrings({ common: enCommon, live: enLive, exports: enExports }),
  fr: trackingPrePaintStrings({ common: frCommon, live: frLive, exports: frExports }),
};

const XSS = '<img src=x onerror="window.__xss=1">Bob';
const point = (key: string, distanceM: number) => ({ key, name: key, distanceM, lat: null, lon: null });
const split = (pointKey: string, netMs: number, rank: number, gapMs: number, timeOfDay: number) => ({
  pointKey,
  timeOfDay,
  gunMs: netMs,
  netMs,
  rankOverall: rank,
  rankGender: rank,
  rankCategory: rank + 1,
  gapMs,
  // The category's first is 3 s ahead at every point but the first.
  gapCategoryMs: rank === 1 ? 3_000 : 0,
  paceMsPerKm: netMs / 10,
});
// An athlete on course (the server's answer, shortened): two points passed, one ahead predicted.
const card: AthleteCard = {
  eventId: 'ev',
  db: 'db1',
  timeZone: 'Europe/Brussels',
  race: {
    id: 'r1',
    name: 'Marathon',
    distanceM: 30000,
    points: [point('10K', 10000), point('20K', 20000), point('Finish', 30000)],
  },
  athlete: {
    raceId: 'r1',
    bib: '17',
    name: `${XSS} Kipchoge`,
    gender: 'M',
    category: 'M 18-34',
    club: '',
    nationality: 'KEN',
    status: 'onCourse',
    trackingKey: 'k17',
    firstName: XSS,
    lastName: 'Kipchoge',
  },
  status: 'onCourse',
  // 2017-04-17 14:30:25 UTC = 16:30:25 in Brussels.
  splits: [
    split('10K', 1_828_000, 5, 1000, 1_492_439_425_000),
    split('20K', 3_675_000, 1, 0, 1_492_441_272_000),
  ],
  prediction: {
    basis: 'pace',
    finishNetMs: 5_530_000,
    finishTimeOfDay: 1_492_443_127_000,
    points: [{ pointKey: 'Finish', netMs: 5_530_000, timeOfDay: 1_492_443_127_000 }],
  },
  estimatedDistanceM: 22_500,
} as AthleteCard;

const paint = (lng: 'en' | 'fr', over: Partial<AthleteCard> = {}, following = false) =>
  buildTrackingPrePaint(document, {
    following,
    card: { ...card, ...over },
    lng,
    strings: strings[lng],
    sprite: '/assets/pre-paint-icons.svg',
    logo: '/favicon.svg',
  });

const rows = (root: HTMLElement) =>
  [...root.querySelectorAll('tbody tr')].map((r) => [...r.children].map((c) => c.textContent));

describe('the tracking card pre-paint', () => {
  it('draws the card from the answer: name, bib line, status, last point, prediction and splits', () => {
    const root = paint('en');
    expect(root.id).toBe('pre-paint');
    expect(root.querySelector('header')?.textContent).toBe('TemporaEN');
    expect(root.querySelector('ol')?.textContent).toBe('Home/Athlete tracking');
    expect(root.querySelector('h1')?.textContent).toBe('Athlete tracking');
    expect(root.querySelector('h2')?.textContent).toBe(`${XSS} Kipchoge`);
    expect(root.querySelector('.pp-top p')?.textContent).toBe('Bib 17 · Marathon · M 18-34');
    expect(root.querySelector('.pp-chip')?.textContent).toBe('On course');
    // Times of day in the event's zone, as the app shows them.
    expect(root.querySelector('.pp-progress p')?.textContent).toBe(
      'Last point: 20K in 1:01:15 (at 17:01:12 CEST)',
    );
    expect((root.querySelector('.pp-bar div') as HTMLElement).style.width).toBe('75%');
    expect(root.querySelector('small')?.textContent).toBe('Estimated position: 22.5 km');
    expect(root.querySelector('.pp-alert')?.textContent).toBe(
      'Predicted finish: 1:32:10 (around 17:32:07 CEST)',
    );
    expect([...root.querySelectorAll('thead th')].map((c) => c.textContent)).toEqual([
      'Point',
      'Time',
      'Rank',
      'Gender',
      'Category',
      'Gap',
      'Pace /km',
    ]);
    expect(rows(root)).toEqual([
      ['10K', '30:28', '5', '5', '6', '+0:01', '3:02'],
      // The category's gap says from whom (issue 43).
      ['20K', '1:01:15', '1', '1', '2+0:03 behind 1st M 18-34', '', '6:07'],
      ['Finish', '≈ 1:32:10 at 17:32:07 CEST', ''],
    ]);
    expect(root.querySelector('tbody tr:last-child td')?.getAttribute('colspan')).toBe('5');
    // The buttons: no certificate before the finish.
    expect([...root.querySelectorAll('.pp-btns span')].map((b) => b.textContent)).toEqual([
      'Share this athlete',
      'Follow',
      'Athletes followed',
    ]);
  });

  it('shows the prediction with its 80 % interval, in each language (issue 27)', () => {
    const prediction = { ...card.prediction!, finishRangeNetMs: [5_400_000, 5_700_000] as [number, number] };
    expect(paint('en', { prediction }).querySelector('.pp-alert')?.textContent).toBe(
      'Predicted finish: 1:32:10 (around 17:32:07 CEST) · 1:30–1:35, 80% likely',
    );
    expect(paint('fr', { prediction }).querySelector('.pp-alert')?.textContent).toMatch(
      /· 1:30–1:35, probable à 80\u00a0%$/,
    );
  });

  it("starts a finisher's card with the summary and its buttons, as React's card (issue 43)", () => {
    const finisher = {
      status: 'finished',
      prediction: null,
      estimatedDistanceM: null,
      timeZone: 'America/New_York',
      splits: [...card.splits, split('Finish', 5_530_000, 3, 2000, 1_492_443_127_000)],
    } as Partial<AthleteCard>;
    const root = paint('en', finisher);
    const summary = root.querySelector('.pp-sum')!;
    expect(summary.previousElementSibling?.className).toBe('pp-top');
    expect(summary.querySelector('.pp-big')?.textContent).toBe('1:32:10');
    expect([...summary.querySelectorAll('dl > div')].map((d) => d.textContent)).toEqual([
      'Overall3',
      'Men3',
      'M 18-344',
      // 553 s a kilometre is 14:49 a mile: an American race reads miles.
      'Pace14:49 /mi',
    ]);
    expect(summary.querySelector('.pp-btns span:last-child')?.textContent).toBe('Finisher certificate (PDF)');
  });

  it('puts data in as text, never as markup', () => {
    const root = paint('en');
    expect(root.querySelector('img[src=x]')).toBeNull();
    expect(root.querySelectorAll('img')).toHaveLength(1); // the logo
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });

  it('is a hidden, inert picture in the page language', () => {
    const root = paint(
      'fr',
      { status: 'finished', prediction: null, estimatedDistanceM: null, splits: [] },
      true,
    );
    expect(root.getAttribute('aria-hidden')).toBe('true');
    expect(root.hasAttribute('inert')).toBe(true);
    expect(root.getAttribute('lang')).toBe('fr');
    expect(root.querySelector('header')?.textContent).toBe('TemporaFR');
    expect(root.querySelector('h1')?.textContent).toBe(frLive.title);
    expect(root.querySelector('.pp-top p')?.textContent).toBe('Dossard 17 · Marathon · M 18-34');
    expect(root.querySelector('.pp-chip')?.textContent).toBe(frLive.status.finished);
    expect(root.querySelector('.pp-chip')?.className).toBe('pp-chip pp-finished');
    expect(root.querySelector('.pp-progress p')?.textContent).toBe(frLive.notYet);
    expect(root.querySelector('.pp-alert')).toBeNull();
    expect([...root.querySelectorAll('thead th')].map((c) => c.textContent)[1]).toBe(frLive.time);
    expect(rows(root)).toEqual([
      ['10K', '', ''],
      ['20K', '', ''],
      ['Finish', '', ''],
    ]);
    // A finisher followed already: the pressed Follow button and the certificate.
    const buttons = [...root.querySelectorAll('.pp-btns span')];
    expect(buttons.map((b) => b.textContent)).toEqual([
      frLive.share,
      frLive.follow.following,
      frLive.follow.title,
      frExports.certificate.download,
    ]);
    expect(buttons[1]?.className).toBe('pp-on');
    expect(buttons[1]?.querySelector('use')?.getAttribute('href')).toBe(
      '/assets/pre-paint-icons.svg#following',
    );
  });

  it("draws an event's card in the default layout: the event in the breadcrumbs, the menu or the rail (issue 27)", () => {
    const event = (width: number) =>
      buildTrackingPrePaint(document, {
        following: false,
        card,
        lng: 'fr',
        strings: strings.fr,
        sprite: '/assets/pre-paint-icons.svg',
        logo: '/favicon.svg',
        event: { name: XSS, width, pinned: false },
      });
    const phone = event(390);
    expect([...phone.querySelectorAll('ol li')].map((li) => li.textContent)).toEqual([
      frCommon.nav.home,
      XSS,
      frLive.title,
    ]);
    expect(phone.querySelector('img[src=x]')).toBeNull();
    expect(phone.querySelector('.pp-menu use')?.getAttribute('href')).toBe(
      '/assets/pre-paint-icons.svg#menu',
    );
    expect(phone.querySelector('.pp-rail')).toBeNull();
    expect(phone.querySelector('.pp-dbar')?.textContent).toContain(frCommon.shell.signIn);
    expect(phone.querySelector('.pp-main h1')?.textContent).toBe(frLive.title);
    const wide = event(1280);
    expect(wide.querySelector('.pp-menu')).toBeNull();
    // Home, tracking, photos, sign in: Diagnostics is staff only (issue 43).
    expect(wide.querySelectorAll('.pp-rail .pp-nav div')).toHaveLength(4);
    // The generic layout's card keeps its compact bar and no event.
    expect(paint('en').querySelector('.pp-dbar, .pp-rail')).toBeNull();
    expect([...paint('en').querySelectorAll('ol li')].map((li) => li.textContent)).toEqual([
      enCommon.nav.home,
      enLive.title,
    ]);
  });
});
