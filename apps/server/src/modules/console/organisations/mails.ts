import type { Language, OrganisationRole } from '@tempora/contracts';
import { interpolate, sharedLocales } from '@tempora/contracts/locales';
import type { Mail } from '../../../identity/outbox.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The link the console's invitation page opens. */
export function invitationLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/#/console/invitations/${encodeURIComponent(token)}`;
}

/**
 * The invitation mail in the inviter's language; its words are the `mails` namespace's
 * `invitation.*` (packages/contracts/src/locales, issue 30: one label source).
 */
export function invitationMail(
  to: string,
  lng: Language,
  input: {
    organisation: string;
    inviter: string;
    role: OrganisationRole;
    link: string;
    token: string;
    days: number;
  },
): Mail {
  const words = sharedLocales[lng].mails.invitation;
  const values = { ...input, role: words.roles[input.role] };
  const t = {
    subject: interpolate(words.subject, values),
    intro: interpolate(words.intro, values),
    button: words.button,
    outro: interpolate(words.outro, values),
  };
  return {
    to,
    subject: `Tempora — ${t.subject}`,
    text: `${t.intro}\n\n${input.link}\n\n${t.outro}\n`,
    html: `<p>${escapeHtml(t.intro)}</p><p><a href="${escapeHtml(input.link)}">${escapeHtml(t.button)}</a></p><p>${escapeHtml(t.outro)}</p>`,
    // The token is masked in the stored outbox (issue 13); the link is printed in development.
    secrets: [input.token],
    link: input.link,
  };
}
