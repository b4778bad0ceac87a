import { Chip } from '@mui/material';
import type { DocumentStatus } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { numberFormat } from '../../../lib/intl.ts';

const COLORS: Record<DocumentStatus, 'default' | 'info' | 'warning' | 'success' | 'error' | 'primary'> = {
  uploaded: 'default',
  mapped: 'info',
  validated: 'info',
  partlyConfirmed: 'warning',
  confirmed: 'success',
  closed: 'primary',
  rejected: 'error',
};

/** A document's status as a coloured chip (the colour repeats the text, never replaces it). */
export function StatusChip({
  status,
  size = 'small',
}: {
  status: DocumentStatus;
  size?: 'small' | 'medium';
}) {
  const { t } = useTranslation('confirmation');
  return <Chip size={size} color={COLORS[status]} label={t(`status.${status}`)} variant="outlined" />;
}

/** Cents as euros in the interface language. */
export function formatFees(cents: number, lng: string): string {
  return numberFormat(lng, { style: 'currency', currency: 'EUR' }).format(cents / 100);
}
