import { Link, Stack } from '@mui/material';
import type { OrderDetail } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/money.ts';
import { download } from '../api/payments.ts';

/**
 * An order's invoice and the credit notes (avoirs) of its refunds, each a PDF (issue 38): what the
 * organiser's staff hand their accountant, beside the order in the console's list.
 */
export function OrderDocuments({ order: o }: { order: OrderDetail }) {
  const { t, i18n } = useTranslation('payments');
  const notes = o.refunds.filter((r) => r.creditNote);
  if (!o.invoice && !notes.length) return null;
  const id = encodeURIComponent(o.id);
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      {o.invoice && (
        <Link
          component="button"
          type="button"
          sx={{ whiteSpace: 'nowrap' }}
          onClick={() => void download(`payments/orders/${id}/invoice.pdf`, `invoice-${o.invoice}.pdf`)}
        >
          {t('staff.invoice', { number: o.invoice })}
        </Link>
      )}
      {notes.map((r) => (
        <Link
          key={r.id}
          component="button"
          type="button"
          sx={{ whiteSpace: 'nowrap' }}
          onClick={() =>
            void download(
              `payments/orders/${id}/credit-notes/${r.creditNote}`,
              `credit-note-${r.creditNote}.pdf`,
            )
          }
        >
          {t('staff.creditNote', {
            number: r.creditNote,
            amount: formatMoney(-r.amountCents, o.currency, i18n.language),
          })}
        </Link>
      ))}
    </Stack>
  );
}
