import type { AthleteCard } from '@tempora/contracts';
import { formatDateTime } from '../../../../packages/domain/src/date-format.ts';
import { formatPaceIn, paceUnitOf } from '../../../../packages/domain/src/results/pace.ts';
import { formatDuration, formatGap } from '../../../../packages/domain/src/time-format.ts';
import { formatRange } from '../../../../packages/domain/src/time-range.ts';
import { pointName } from '../lib/point-name.ts';
import { DEFAULT_CHROME_CSS, type DefaultChromeStrings, drawDefaultChrome } from './default-chrome.ts';
import { prePaintRoot, spriteIcon } from './dom.ts';
import { GENERIC_CHROME_CSS } from './generic-chrome.ts';
import type { PrePaintIcon } from './icons.ts';

/** The texts the tracking card's pre-paint shows, in one language (`trackingPrePaintStrings`). */
export interface TrackingPrePaintStrings extends DefaultChromeStrings {
  title: string;
  bib: string;
  status: Record<string, string>;
  lastPoint: string;
  notYet: string;
  estimated: string;
  predictedFinish: string;
  predictedRange: string;
  predictedAt: string;
  /** Point, time, rank, gender rank, category rank, gap, pace: the splits' headers. */
  heads: string[];
  /** A finisher's summary (issue 43): its label, time, overall and gender places, paces. */
  summary: Record<string, string>;
  /** The pace header in each unit, the category gap saying from whom. */
  paceIn: { km: string; mi: string };
  gapCategoryFrom: string;
  /** The card's buttons: share, follow, following, the athletes followed, the certificate. */
  share: string;
  follow: string;
  following: string;
  followed: string;
  certificate: string;
}

/** The tracking card's texts of one language from its locale namespaces (common, live). */
export function trackingPrePaintStrings(ns: {
  common: object;
  live: object;
  exports: object;
}): TrackingPrePaintStrings {
  // (JSON namespaces: the keys below are checked by the tests, which build from the real files.)
  const c = ns.common as { product: string; nav: Record<string, string>; shell: Record<string, string> };
  const l = ns.live as Record<string, string> & {
    status: Record<string, string>;
    follow: Record<string, string>;
  };
  const x = ns.exports as { certificate: Record<string, string> };
  return {
    product: c.product,
    home: c.nav.home!,
    signIn: c.shell.signIn!,
    navTracking: c.nav.tracking!,
    navPhotos: c.nav.photos!,
    title: l.title!,
    bib: l.bib!,
    status: l.status,
    lastPoint: l.lastPoint!,
    notYet: l.notYet!,
    estimated: l.estimated!,
    predictedFinish: l.predictedFinish!,
    predictedRange: l.predictedRange!,
    predictedAt: l.predictedAt!,
    heads: ['point', 'time', 'rank', 'rankGender', 'rankCategory', 'gap', 'pace'].map((k) => l[k]!),
    summary: (l as unknown as { summary: Record<string, string> }).summary,
    paceIn: { km: l.paceIn_km!, mi: l.paceIn_mi! },
    gapCategoryFrom: l.gapCategoryFrom!,
    share: l.share!,
    follow: l.follow.follow!,
    following: l.follow.following!,
    followed: l.follow.title!,
    certificate: x.certificate.download!,
  };
}

/** What the tracking card's pre-paint is drawn from: the boot script's early answer. */
export interface TrackingPrePaintInput {
  card: AthleteCard;
  lng: 'en' | 'fr';
  strings: TrackingPrePaintStrings;
  /** Address of the icons' sprite (icons.ts: the language button's icon). */
  sprite: string;
  /** The brand's logo (the bar's). */
  logo: string;
  /** The athlete is among those followed (followed.ts): the Follow button is pressed. */
  following: boolean;
  /**
   * An event's tracking card (`/#/events/{eventId}/tracking/{key}`, issue 27): the default
   * layout's chrome (rail, bar), the event in the breadcrumbs; absent on the generic layout's.
   */
  event?: { name: string; width: number; pinned: boolean };
}

/**
 * The style sheet: the values of the React page's (MUI theme, generic layout, TopBar, PageHeader,
 * athlete-card.tsx), measured on the rendered page at 390 and 1280 px, under `#pre-paint` only.
 * The splits are a real `<table>` with MUI's small cells, so its columns take React's widths.
 */
export const TRACKING_PRE_PAINT_CSS =
  GENERIC_CHROME_CSS +
  `#pre-paint section{background:#fff;border:1px solid rgba(0,0,0,.12);border-radius:8px;padding:12px}
#pre-paint .pp-top{display:flex;justify-content:space-between;align-items:flex-start;gap:8px;flex-wrap:wrap}
#pre-paint h2{margin:0;font-size:24px;line-height:1.334;font-weight:700}
#pre-paint p{margin:0}
#pre-paint .pp-chip{height:32px;padding:0 12px;border-radius:16px;font-size:13px;line-height:32px;white-space:nowrap;background:rgba(0,0,0,.08)}
#pre-paint .pp-finished{background:#2e7d32;color:#fff}
#pre-paint .pp-onCourse{background:#39aade;color:#0a1f2b}
#pre-paint .pp-progress{margin:16px 0}
#pre-paint .pp-progress p{margin-bottom:4px;font-size:14px;line-height:1.43}
#pre-paint .pp-bar{height:8px;border-radius:32px;overflow:hidden;background:#b3def2}
#pre-paint .pp-bar div{height:100%;background:#39aade}
#pre-paint small{display:block;font-size:12px;line-height:24px;color:rgba(0,0,0,.6)}
#pre-paint .pp-alert{margin-bottom:16px;padding:14px 16px;border-radius:8px;background:#e5f6fd;color:#014361;font-size:14px;line-height:1.43}
#pre-paint table{width:100%;border-collapse:collapse;border-spacing:0}
#pre-paint td,#pre-paint th{padding:6px 4px;border-bottom:1px solid #e0e0e0;font-size:13px;line-height:1.43;text-align:right;font-weight:400}
#pre-paint thead th{line-height:24px;font-weight:500}
#pre-paint tr>:first-child{text-align:left;white-space:nowrap}
#pre-paint .pp-g{display:none}
#pre-paint .cat-gap{display:block;font-size:12px}
#pre-paint .pp-ahead{opacity:.75}
#pre-paint .pp-ahead td{text-align:left;white-space:nowrap}
#pre-paint .pp-btns{display:flex;flex-wrap:wrap;margin-top:16px}
#pre-paint .pp-btns>*+*{margin-left:8px}
#pre-paint .pp-btns span{display:inline-flex;align-items:center;justify-content:center;min-width:64px;padding:5px 15px;border:1px solid #0b6a9a;border-radius:8px;color:#0b6a9a;font-size:14px;line-height:24.5px;font-weight:600}
#pre-paint .pp-btns .pp-text{padding:6px 8px;border:0}
#pre-paint .pp-btns .pp-on{background:#39aade;border:0;padding:6px 16px;color:#0a1f2b;box-shadow:0 3px 1px -2px rgba(0,0,0,.2),0 2px 2px 0 rgba(0,0,0,.14),0 1px 5px 0 rgba(0,0,0,.12)}
#pre-paint td:nth-child(2){font-weight:700;font-variant-numeric:tabular-nums}
#pre-paint td:nth-child(6){white-space:nowrap}
#pre-paint .pp-ahead td{font-weight:400}
#pre-paint .pp-sum{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-end;margin:12px 0}
#pre-paint .pp-sum small{line-height:1.66}
#pre-paint .pp-big{display:block;font-size:30px;line-height:1.1;font-variant-numeric:tabular-nums}
#pre-paint .pp-sum dl{display:flex;flex-wrap:wrap;gap:12px;margin:0}
#pre-paint .pp-sum dt{font-size:12px;line-height:1.66;color:rgba(0,0,0,.6)}
#pre-paint .pp-sum dd{margin:0;font-size:20px;font-weight:700;line-height:1.5}
#pre-paint .pp-sum .pp-btns{flex-basis:100%;margin-top:0}
@media (min-width:600px){#pre-paint header{padding:0 24px}#pre-paint main{padding:16px}#pre-paint h1{font-size:32px}#pre-paint section{padding:20px}#pre-paint td,#pre-paint th{padding:6px 16px;font-size:14px}#pre-paint .pp-g{display:table-cell}}`;

/** Fills `{{name}}` placeholders of a locale text. */
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{\s*(\w+)[^}]*\}\}/g, (_, k: string) => values[k] ?? '');

/**
 * The first screen of a tracking card (`/#/tracking/{key}`, issue 19: LCP before React), drawn
 * with DOM calls from the boot script's early answer: the generic layout's bar, the page's
 * breadcrumbs and title, and the card — name, bib line, status, last point and progress, the
 * predicted finish, the splits — with the markup sizes of React's page, so nothing moves when
 * React's card replaces it (`endPrePaint`, tracking-page.tsx). The card's buttons are React's to
 * draw (below the splits). Every text goes in with `textContent`; the whole is `aria-hidden` and
 * inert, in the page's language: a picture of the page, not a second one.
 */
export function buildTrackingPrePaint(doc: Document, input: TrackingPrePaintInput): HTMLElement {
  const { card, lng, strings: s } = input;
  const el = (tag: string, parent: Element, text?: string | null, className?: string) => {
    const node = doc.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    parent.append(node);
    return node;
  };
  const clock = (ms: number | null) => formatDateTime(ms, card.timeZone, lng, { date: false, seconds: true });
  const root = prePaintRoot(doc, lng);
  el('style', root, input.event ? TRACKING_PRE_PAINT_CSS + DEFAULT_CHROME_CSS : TRACKING_PRE_PAINT_CSS);
  const icon = (name: PrePaintIcon) => spriteIcon(doc, input.sprite, name);
  let main: HTMLElement;
  if (input.event) {
    // The default layout (an event's card): rail, bar, the content's padding.
    main = drawDefaultChrome(doc, root, { ...input, ...input.event });
  } else {
    // The generic layout's top bar (top-bar.tsx): logo and name, the language button.
    const bar = el('header', root);
    const brand = el('span', bar);
    (el('img', brand) as HTMLImageElement).src = input.logo;
    brand.append(s.product);
    el('b', bar).append(icon('translate'), lng.toUpperCase());
    main = el('main', root);
  }

  // PageHeader: Home / (the event /) title, then the title.
  const crumbs = el('ol', main);
  for (const label of [s.home, input.event?.name, s.title].filter((x): x is string => !!x)) {
    if (crumbs.firstChild) el('i', crumbs, '/');
    el('li', crumbs, label);
  }
  el('h1', main, s.title);

  // The card (athlete-card.tsx).
  const section = el('section', main);
  const top = el('div', section, null, 'pp-top');
  const who = el('div', top);
  const { athlete } = card;
  el('h2', who, `${athlete.firstName} ${athlete.lastName}`);
  el(
    'p',
    who,
    [`${s.bib} ${athlete.bib}`, card.race.name, athlete.category, athlete.club].filter(Boolean).join(' · '),
  );
  el('div', top, s.status[card.status] ?? card.status, `pp-chip pp-${card.status}`);

  // A finisher's summary first, the buttons in it (finish-summary.tsx, issue 43).
  const unit = paceUnitOf(card.timeZone);
  const finish = card.race.points.at(-1);
  const finished = card.splits.find((x) => x.pointKey === finish?.key && x.netMs !== null);
  const summary = card.status === 'finished' && finished ? el('div', section, null, 'pp-sum') : null;
  if (summary && finished) {
    const time = el('div', summary);
    el('small', time, s.summary.time);
    el('b', time, formatDuration(finished.netMs ?? 0), 'pp-big');
    const places = el('dl', summary);
    const gender =
      athlete.gender === 'F' || athlete.gender === 'M' ? s.summary[`gender${athlete.gender}`] : s.heads[3];
    const pace = formatPaceIn(finished.paceMsPerKm, unit);
    for (const [label, value] of [
      [s.summary.overall, finished.rankOverall ? String(finished.rankOverall) : ''],
      [gender, finished.rankGender ? String(finished.rankGender) : ''],
      [
        athlete.category ?? '',
        athlete.category && finished.rankCategory ? String(finished.rankCategory) : '',
      ],
      [s.heads[6], pace ? fill(s.summary[`pace_${unit}`] ?? '', { pace }) : ''],
    ] as [string, string][]) {
      if (!value) continue;
      const item = el('div', places);
      el('dt', item, label);
      el('dd', item, value);
    }
  }

  const reached = card.splits.filter((x) => x.netMs !== null);
  const last = reached.at(-1);
  const lastPoint = last && card.race.points.find((p) => p.key === last.pointKey);
  const progress = el('div', section, null, 'pp-progress');
  el(
    'p',
    progress,
    last && lastPoint
      ? fill(s.lastPoint, {
          point: pointName(lastPoint, lng),
          time: formatDuration(last.netMs ?? 0),
          clock: clock(last.timeOfDay),
        })
      : s.notYet,
  );
  const distance = card.estimatedDistanceM;
  const track = el('div', progress, null, 'pp-bar');
  el('div', track).style.width =
    `${distance !== null ? Math.min(100, (distance / card.race.distanceM) * 100) : 0}%`;
  if (distance !== null && card.status === 'onCourse')
    el(
      'small',
      progress,
      fill(s.estimated, { km: (distance / 1000).toLocaleString(lng, { maximumFractionDigits: 1 }) }),
    );
  if (card.prediction)
    el(
      'div',
      section,
      fill(s.predictedFinish, {
        time: formatDuration(card.prediction.finishNetMs),
        clock: clock(card.prediction.finishTimeOfDay),
      }) +
        (card.prediction.finishRangeNetMs
          ? ` · ${fill(s.predictedRange, { range: formatRange(...card.prediction.finishRangeNetMs) })}`
          : ''),
      'pp-alert',
    );

  // The splits: every point, a reached one with its time, ranks, gap and pace, one ahead with its
  // prediction across the columns (React's one-line prediction cell).
  const table = el('table', section);
  const head = el('tr', el('thead', table));
  for (const [i, h] of s.heads.entries())
    el('th', head, i === 6 ? s.paceIn[unit] : h, i === 3 ? 'pp-g' : undefined);
  const body = el('tbody', table);
  const predicted = new Map(card.prediction?.points.map((p) => [p.pointKey, p]) ?? []);
  card.race.points.forEach((point, k) => {
    const split = card.splits[k];
    const done = split && split.netMs !== null;
    const row = el('tr', body, null, done ? undefined : 'pp-ahead');
    el('th', row, pointName(point, lng));
    if (done) {
      el('td', row, formatDuration(split.netMs ?? 0));
      el('td', row, String(split.rankOverall ?? ''));
      el('td', row, String(split.rankGender ?? ''), 'pp-g');
      const category = el('td', row, String(split.rankCategory ?? ''));
      // The category's own gap beneath its rank, as the card shows it (issue 27).
      if (split.gapCategoryMs)
        el(
          'span',
          category,
          fill(s.gapCategoryFrom, {
            gap: formatGap(split.gapCategoryMs, lng),
            category: athlete.category ?? '',
          }),
          'cat-gap',
        );
      el('td', row, formatGap(split.gapMs, lng));
      el('td', row, formatPaceIn(split.paceMsPerKm, unit));
    } else {
      const ahead = predicted.get(point.key);
      const cell = el(
        'td',
        row,
        ahead
          ? fill(s.predictedAt, { time: formatDuration(ahead.netMs), clock: clock(ahead.timeOfDay) })
          : '',
      ) as HTMLTableCellElement;
      cell.colSpan = 5;
      el('td', row, null, 'pp-g');
    }
  });

  // The buttons (athlete-card.tsx, tracking-page.tsx): share, follow (pressed when followed),
  // the athletes followed, a finisher's certificate.
  // A finisher's are in the summary, above the progress and splits (React's order).
  const buttons = el('div', summary ?? section, null, 'pp-btns');
  el('span', buttons, s.share);
  el('span', buttons, null, input.following ? 'pp-on' : undefined).append(
    icon(input.following ? 'following' : 'follow'),
    input.following ? s.following : s.follow,
  );
  el('span', buttons, s.followed, 'pp-text');
  if (card.status === 'finished') el('span', buttons).append(icon('certificate'), s.certificate);
  return root;
}
