import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PickupOpAnswer } from '../api/pickup.ts';

const KNOWN = [
  'CHIP_TAKEN',
  'BIB_TAKEN',
  'ALREADY_HANDED_OUT',
  'NO_RANGE',
  'RANGE_FULL',
  'NOTHING_OWED',
  'AMOUNT_TOO_HIGH',
] as const;

/** The server's word on an operation that was not simply done: a refusal or a conflict. */
export function AnswerAlert({ answer }: { answer: PickupOpAnswer }) {
  const { t } = useTranslation('pickup');
  if (answer.status === 'done' || answer.status === 'pending') return null;
  const known = (KNOWN as readonly string[]).includes(answer.code ?? '');
  return (
    <Alert severity={answer.status === 'conflict' ? 'warning' : 'error'} role="alert">
      {known
        ? t(`answer.${answer.code as (typeof KNOWN)[number]}`, {
            name: answer.holder?.name ?? '',
            bib: answer.holder?.bib ?? '—',
          })
        : t('answer.other', { message: answer.message ?? answer.code ?? '' })}
    </Alert>
  );
}
