import type { AlertPush, AthleteCard } from '@tempora/contracts';
import { shownRunnerName } from '@tempora/contracts';
import { interpolate, sharedLocales } from '@tempora/contracts/locales';
import { formatDuration, formatTimeOfDay } from '@tempora/domain';
import type { Mail } from '../../identity/outbox.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One passing to tell a follower about. */
export interface AlertPassing {
  pointKey: string;
  /** Net time at the point (ms); the start's is 0. */
  netMs: number;
  /** Wall-clock time of the passing (epoch ms). */
  timeOfDay: number | null;
  rank: number | null;
  corrected: boolean;
}

/** The words of one alert in the follower's language (the `mails` namespace: one label source). */
export function alertWords(
  card: AthleteCard,
  passing: AlertPassing,
  lng: 'en' | 'fr',
  base: string,
  token: string,
) {
  const t = sharedLocales[lng].mails.alert;
  const name = shownRunnerName(`${card.athlete.firstName} ${card.athlete.lastName}`.trim(), lng);
  const point =
    passing.pointKey === 'start'
      ? t.start
      : (() => {
          const p = card.race.points.find((pt) => pt.key === passing.pointKey);
          const finish = card.race.points.at(-1)?.key === passing.pointKey;
          if (finish) return t.finish;
          return (lng === 'fr' ? p?.nameFr : undefined) ?? p?.name ?? passing.pointKey;
        })();
  const values = {
    name,
    point,
    time: formatDuration(passing.netMs) || '0:00',
    clock:
      passing.timeOfDay === null
        ? ''
        : formatTimeOfDay(passing.timeOfDay, card.timeZone ?? 'Europe/Brussels'),
    rank: passing.rank ?? '—',
    finish: card.prediction ? formatDuration(card.prediction.finishNetMs) : '',
  };
  const root = base.replace(/\/+$/, '');
  const cardLink = `${root}/#/events/${encodeURIComponent(card.eventId)}/tracking/${encodeURIComponent(card.athlete.trackingKey)}`;
  const unsubscribeLink = `${root}/#/alerts/unsubscribe/${token}`;
  const subject = interpolate(passing.corrected ? t.correctedSubject : t.subject, values);
  const lines = [
    interpolate(t.body, values),
    ...(passing.corrected ? [interpolate(t.corrected, values)] : []),
    ...(card.prediction && card.status !== 'finished' ? [interpolate(t.predicted, values)] : []),
  ];
  return { subject, lines, cardLink, unsubscribeLink, name, t, values };
}

/** The alert as an e-mail: the card's link and the one-click unsubscribe in every message. */
export function alertMail(to: string, words: ReturnType<typeof alertWords>): Mail {
  const { t, name } = words;
  const card = interpolate(t.card, { link: words.cardLink });
  const unsubscribe = interpolate(t.unsubscribe, { name, link: words.unsubscribeLink });
  return {
    to,
    subject: `Tempora — ${words.subject}`,
    text: `${[...words.lines, card, unsubscribe].join('\n\n')}\n`,
    html: `${words.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p><a href="${escapeHtml(words.cardLink)}">${escapeHtml(words.cardLink)}</a></p><p><a href="${escapeHtml(words.unsubscribeLink)}">${escapeHtml(interpolate(t.unsubscribe, { name, link: '' }).replace(/[:\s]+$/, ''))}</a></p>`,
  };
}

/** The alert as a push message (the service worker shows it, with an unsubscribe action). */
export function alertPush(words: ReturnType<typeof alertWords>, passing: AlertPassing): AlertPush {
  return {
    title: words.subject,
    body: words.lines.join(' '),
    url: words.cardLink,
    unsubscribeUrl: words.unsubscribeLink,
    unsubscribeLabel: words.t.unsubscribeAction,
    corrected: passing.corrected,
    pointKey: passing.pointKey,
  };
}

/** The one confirmation of a follower's address. */
export function confirmMail(to: string, lng: 'en' | 'fr', base: string, token: string): Mail {
  const t = sharedLocales[lng].mails.alertConfirm;
  const link = `${base.replace(/\/+$/, '')}/#/alerts/confirm/${token}`;
  return {
    to,
    subject: `Tempora — ${t.subject}`,
    text: `${t.intro}\n\n${link}\n\n${t.outro}\n`,
    html: `<p>${escapeHtml(t.intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(t.button)}</a></p><p>${escapeHtml(t.outro)}</p>`,
    secrets: [token],
    link,
  };
}
