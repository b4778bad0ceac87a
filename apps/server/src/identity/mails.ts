import type { Language } from '@tempora/contracts';
import { sharedLocales } from '@tempora/contracts/locales';
import type { Mail } from './outbox.ts';

/*
 * The words of these mails are the `mails` namespace of the one label source
 * (packages/contracts/src/locales/{en,fr}/mails.json, issue 30).
 */

/** The e-mail action handler's modes (`#/auth/action?mode=…&oobCode=…`, issue 4). */
export type ActionMode = 'verifyEmail' | 'resetPassword';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The link the web client's action handler opens; `next`, a page of the web client to go to once
 * verified (an invitation: issue 43).
 */
export function actionLink(baseUrl: string, mode: ActionMode, code: string, next?: string): string {
  const then = next ? `&next=${encodeURIComponent(next)}` : '';
  return `${baseUrl.replace(/\/+$/, '')}/#/auth/action?mode=${mode}&oobCode=${encodeURIComponent(code)}${then}`;
}

/** A verification or reset mail in the user's language. */
export function actionMail(to: string, lng: Language, mode: ActionMode, link: string): Mail {
  const t = sharedLocales[lng].mails[mode];
  return {
    to,
    subject: `Tempora — ${t.subject}`,
    text: `${t.intro}\n\n${link}\n\n${t.outro}\n`,
    html: `<p>${escapeHtml(t.intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(t.button)}</a></p><p>${escapeHtml(t.outro)}</p>`,
  };
}

/**
 * The one notice an account gets when a password spray against it starts (issue 25): sent when
 * its failed sign-ins reach the backoff threshold, once per spray.
 */
export function signInNoticeMail(to: string, lng: Language, baseUrl: string): Mail {
  const t = sharedLocales[lng].mails.signInNotice;
  const body = [t.failed, t.notLocked, t.reset];
  const link = `${baseUrl.replace(/\/+$/, '')}/#/auth/forgot-password`;
  return {
    to,
    subject: `Tempora — ${t.subject}`,
    text: `${body.join('\n\n')}\n\n${link}\n`,
    html: `${body.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  };
}
