import type { ContactMessageInput } from '@tempora/contracts';
import { interpolate, sharedLocales } from '@tempora/contracts/locales';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/**
 * The e-mail the organiser receives for a contact form message (the sender's text is escaped),
 * in the recipient's language (issue 41); the words are the `mails` namespace's `contact.*`
 * (packages/contracts/src/locales, issue 30: one label source).
 */
export function contactMail(eventName: string, m: ContactMessageInput, lng: 'en' | 'fr' = 'en') {
  const subject = `[${eventName}] ${m.subject}`.slice(0, 250);
  const wrote = interpolate(sharedLocales[lng].mails.contact.wrote, {
    name: m.name,
    email: m.email,
    event: eventName,
  });
  const text = `${wrote}\n\n${m.message}\n`;
  const html = `<p>${escapeHtml(wrote)}</p><p>${escapeHtml(m.message).replace(/\n/g, '<br>')}</p>`;
  return { subject, text, html };
}
