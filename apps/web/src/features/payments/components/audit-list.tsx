import { List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney } from '../../../lib/money.ts';
import { useAudit } from '../api/payments.ts';

/** Who matched, ignored or refunded what, and when (automatic matches included). */
export function AuditList({ eventId }: { eventId: string }) {
  const { t, i18n } = useTranslation('payments');
  const audit = useAudit(eventId);
  if (!audit.data?.length) return <Typography color="text.secondary">{t('audit.empty')}</Typography>;
  return (
    <List dense>
      {audit.data.map((a) => (
        <ListItem key={a.id} divider>
          <ListItemText
            primary={`${t(`audit.actions.${a.action}`, { defaultValue: a.action })}${a.orderId ? ` · #${a.orderId}` : ''}${a.amountCents !== null ? ` · ${formatMoney(a.amountCents, 'EUR', i18n.language)}` : ''}`}
            secondary={`${formatDateTime(a.createdAt, i18n.language)} · ${a.actor === 'automatic' ? t('audit.automatic') : a.actor}${a.note ? ` · ${a.note}` : ''}`}
          />
        </ListItem>
      ))}
    </List>
  );
}
