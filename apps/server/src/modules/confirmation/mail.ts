import { confirmationMailWords, type DocumentSummary, type ReportLng } from '@tempora/contracts';
import { interpolate, sideBySide } from '@tempora/contracts/locales';
import type { DocumentRecord } from './repository.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`;

/**
 * The mail the sender's contact receives when the document is confirmed or rejected (issue 17:
 * "with the report attached or linked"): the totals, the reason of a rejection, and a link to the
 * report. In English and French, as we do not know the contact's language; the words are the
 * `confirmation` namespace's `mail.*` (packages/contracts/src/locales, issue 30).
 */
export function documentMail(
  kind: 'confirmed' | 'rejected',
  summary: DocumentSummary,
  doc: Pick<DocumentRecord, 'id' | 'title' | 'eventName' | 'contactName' | 'rejectReason'>,
  publicUrl: string | undefined,
  /** The order the fees became (issue 29): what to transfer, where, with which communication. */
  payment?: {
    amountCents: number;
    communication: string;
    invoiceNumber: string;
    iban: string;
    beneficiary: string;
  },
): { subject: string; text: string; html: string } {
  const link = `${(publicUrl ?? '').replace(/\/$/, '')}/#/confirmation/document/${doc.id}/report`;
  const hello = doc.contactName ? `${doc.contactName},` : '';
  const c = summary.counts;
  const values = {
    title: doc.title,
    event: doc.eventName,
    confirmed: c.confirmed,
    rejected: c.rejected,
    fees: euros(summary.feesCents),
    link,
    reason: doc.rejectReason ?? '',
    ...(payment && {
      invoice: payment.invoiceNumber,
      amount: euros(payment.amountCents),
      beneficiary: payment.beneficiary,
      iban: payment.iban,
      communication: payment.communication,
    }),
  };
  const lines = (lng: ReportLng) => {
    const say = (key: keyof typeof confirmationMailWords) =>
      interpolate(confirmationMailWords[key][lng], values);
    return kind === 'confirmed'
      ? [say('confirmed'), say('counts'), ...(payment ? [say('invoice')] : []), say('report')]
      : [say('rejected'), say('reason'), say('resend')];
  };
  const en = lines('en');
  const fr = lines('fr');
  const words = confirmationMailWords[kind === 'confirmed' ? 'subjectConfirmed' : 'subjectRejected'];
  const subject = `${sideBySide(words)}: ${doc.title}`;
  const text = [hello, ...en, '', '—', '', hello, ...fr].filter((l, k) => l || k > 0).join('\n');
  const html = [hello, ...en, '<hr>', hello, ...fr]
    .map((l) => (l === '<hr>' ? l : `<p>${escapeHtml(l)}</p>`))
    .join('\n');
  return { subject, text, html };
}
