import type { DocumentSummary } from '@tempora/contracts';
import type { DocumentRecord } from './repository.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`;

/**
 * The mail the sender's contact receives when the document is confirmed or rejected (issue 17:
 * "with the report attached or linked"): the totals, the reason of a rejection, and a link to the
 * report. In English and French, as we do not know the contact's language.
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
  const en =
    kind === 'confirmed'
      ? [
          `Your registration document "${doc.title}" for ${doc.eventName} is confirmed.`,
          `${c.confirmed} runner(s) registered, ${c.rejected} row(s) not accepted. Fees: ${euros(summary.feesCents)}.`,
          ...(payment
            ? [
                `Invoice ${payment.invoiceNumber}: please transfer ${euros(payment.amountCents)} to ${payment.beneficiary} ${payment.iban} with the structured communication ${payment.communication}.`,
              ]
            : []),
          `Report: ${link}`,
        ]
      : [
          `Your registration document "${doc.title}" for ${doc.eventName} was rejected.`,
          `Reason: ${doc.rejectReason ?? ''}`,
          'Please send a corrected document.',
        ];
  const fr =
    kind === 'confirmed'
      ? [
          `Votre document d'inscription « ${doc.title} » pour ${doc.eventName} est confirmé.`,
          `${c.confirmed} coureur(s) inscrit(s), ${c.rejected} ligne(s) non retenue(s). Montant : ${euros(summary.feesCents)}.`,
          ...(payment
            ? [
                `Facture ${payment.invoiceNumber} : merci de virer ${euros(payment.amountCents)} à ${payment.beneficiary} ${payment.iban} avec la communication structurée ${payment.communication}.`,
              ]
            : []),
          `Rapport : ${link}`,
        ]
      : [
          `Votre document d'inscription « ${doc.title} » pour ${doc.eventName} a été refusé.`,
          `Motif : ${doc.rejectReason ?? ''}`,
          'Merci de nous envoyer un document corrigé.',
        ];
  const subject =
    kind === 'confirmed'
      ? `Registration confirmed / Inscription confirmée: ${doc.title}`
      : `Registration rejected / Inscription refusée: ${doc.title}`;
  const text = [hello, ...en, '', '—', '', hello, ...fr].filter((l, k) => l || k > 0).join('\n');
  const html = [hello, ...en, '<hr>', hello, ...fr]
    .map((l) => (l === '<hr>' ? l : `<p>${escapeHtml(l)}</p>`))
    .join('\n');
  return { subject, text, html };
}
