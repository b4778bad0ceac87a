import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { AuditList as TrailList } from '../../../components/audit-list.tsx';
import { formatDateTime, formatMoney } from '../../../lib/money.ts';
import { useAudit } from '../api/payments.ts';

/** Who matched, ignored or refunded what, and when (automatic matches included). */
export function AuditList({ eventId }: { eventId: string }) {
  const { t, i18n } = useTranslation('payments');
  const audit = useAudit(eventId);
  if (!audit.data) return null;
  if (!audit.data.length) return <Typography color="text.secondary">{t('audit.empty')}</Typography>;
  return (
    <TrailList
      label={t('staff.tabs.audit')}
      formatTime={(iso) => formatDateTime(iso, i18n.language)}
      items={audit.data.map((a) => ({
        id: a.id,
        at: a.createdAt,
        actor: a.actor === 'automatic' ? t('audit.automatic') : a.actor,
        action: `${t(`audit.actions.${a.action}`, { defaultValue: a.action })}${a.orderId ? ` · #${a.orderId}` : ''}${a.amountCents !== null ? ` · ${formatMoney(a.amountCents, 'EUR', i18n.language)}` : ''}`,
        details: a.note ? [a.note] : [],
      }))}
    />
  );
}
