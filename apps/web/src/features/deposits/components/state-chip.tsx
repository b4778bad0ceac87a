import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, 'default' | 'primary' | 'success' | 'warning' | 'error' | 'info'> = {
  collecting: 'info',
  submitted: 'info',
  awaiting_payment: 'warning',
  paid: 'success',
  confirmed: 'success',
  closed: 'default',
  expired: 'error',
  cancelled: 'default',
  placeholder: 'default',
  valid: 'primary',
  refunded: 'default',
};

/** A deposit, entry or order state as a coloured chip with its translated name. */
export function StateChip({ state, kind }: { state: string; kind: 'deposit' | 'entry' | 'order' }) {
  const { t } = useTranslation('deposits');
  return <Chip size="small" color={COLORS[state] ?? 'default'} label={t(`states.${kind}.${state}`)} />;
}
