import {
  Button,
  Chip,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { DepositDetail, DepositEntry } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/money.ts';
import { StateChip } from './state-chip.tsx';

/** Columns left out on a phone (the bib and the fee matter more there). */
const WIDE = { display: { xs: 'none', sm: 'table-cell' } } as const;

/** The team's entries: who, race, category, state, what is missing, bib and payment. */
export function EntriesTable({
  deposit,
  onEdit,
  onRemove,
  onDecide,
}: {
  deposit: DepositDetail;
  onEdit?: ((entry: DepositEntry) => void) | undefined;
  onRemove?: ((entry: DepositEntry) => void) | undefined;
  /** Organiser staff: approve or reject a substitution asked after payment. */
  onDecide?: ((entry: DepositEntry, approve: boolean) => void) | undefined;
}) {
  const { t, i18n } = useTranslation('deposits');
  const entries = deposit.entries.filter((e) => e.state !== 'cancelled');
  if (!entries.length) return <Typography color="text.secondary">{t('entries.none')}</Typography>;
  const canEdit = (e: DepositEntry) => deposit.role !== 'member' || e.mine;
  return (
    <TableContainer>
      <Table size="small" aria-label={t('entries.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('entries.name')}</TableCell>
            <TableCell>{t('entries.race')}</TableCell>
            <TableCell sx={WIDE}>{t('entries.category')}</TableCell>
            <TableCell>{t('entries.state')}</TableCell>
            <TableCell>{t('entries.bib')}</TableCell>
            <TableCell align="right">{t('entries.fee')}</TableCell>
            {(onEdit || onRemove) && <TableCell>{t('entries.actions')}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map((e) => (
            <TableRow key={e.id} data-testid={`entry-${e.id}`}>
              <TableCell>
                {e.firstName || e.lastName ? (
                  `${e.firstName} ${e.lastName}`
                ) : (
                  <em>{t('entries.placeholder')}</em>
                )}
                {e.mine && <Chip size="small" label={t('entries.mine')} sx={{ ml: 1 }} />}
                {e.missing.length > 0 && e.state !== 'placeholder' && (
                  <Typography variant="body2" color="warning.main">
                    {t('entries.missing', { fields: e.missing.map((f) => t(`entry.${f}`)).join(', ') })}
                  </Typography>
                )}
                {e.substitution && (
                  <Typography variant="body2" color="info.main">
                    {t('entries.substitution', {
                      name: `${e.substitution.firstName ?? ''} ${e.substitution.lastName ?? ''}`,
                    })}
                  </Typography>
                )}
                {e.substitution && onDecide && deposit.role === 'staff' && (
                  <>
                    <Button size="small" onClick={() => onDecide(e, true)}>
                      {t('actions.approve')}
                    </Button>
                    <Button size="small" color="error" onClick={() => onDecide(e, false)}>
                      {t('actions.reject')}
                    </Button>
                  </>
                )}
              </TableCell>
              <TableCell>{e.raceName ?? '—'}</TableCell>
              <TableCell sx={WIDE}>{e.category ?? '—'}</TableCell>
              <TableCell>
                <StateChip kind="entry" state={e.state} />
              </TableCell>
              <TableCell>{e.bib ?? '—'}</TableCell>
              <TableCell align="right">
                {e.priceCents === null ? '—' : formatMoney(e.priceCents, deposit.currency, i18n.language)}
                {e.paid && <Chip size="small" color="success" label={t('entries.paid')} sx={{ ml: 1 }} />}
              </TableCell>
              {(onEdit || onRemove) && (
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {onEdit && canEdit(e) && (
                    <Button size="small" onClick={() => onEdit(e)}>
                      {e.state === 'placeholder' ? t('actions.fill') : t('actions.edit')}
                    </Button>
                  )}
                  {onRemove && canEdit(e) && deposit.state === 'collecting' && (
                    <Button size="small" color="error" onClick={() => onRemove(e)}>
                      {t('actions.remove')}
                    </Button>
                  )}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
