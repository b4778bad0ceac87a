import type { ContactMessageInput } from '@tempora/contracts';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** The e-mail the organiser receives for a contact form message (the sender's text is escaped). */
export function contactMail(eventName: string, m: ContactMessageInput) {
  const subject = `[${eventName}] ${m.subject}`.slice(0, 250);
  const text = `${m.name} <${m.email}> wrote through the contact form of ${eventName}:\n\n${m.message}\n`;
  const html = `<p>${escapeHtml(m.name)} &lt;${escapeHtml(m.email)}&gt; wrote through the contact form of ${escapeHtml(eventName)}:</p><p>${escapeHtml(m.message).replace(/\n/g, '<br>')}</p>`;
  return { subject, text, html };
}
