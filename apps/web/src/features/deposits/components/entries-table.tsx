import { Button, Chip, Typography } from '@mui/material';
import type { DepositDetail, DepositEntry } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table.tsx';
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
  /** Who, with what is missing and a substitution the staff may decide on. */
  const name = (e: DepositEntry) => (
    <>
      {e.firstName || e.lastName ? `${e.firstName} ${e.lastName}` : <em>{t('entries.placeholder')}</em>}
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
    </>
  );
  const columns: DataTableColumn<DepositEntry>[] = [
    { key: 'name', header: t('entries.name'), cell: name },
    { key: 'race', header: t('entries.race'), cell: (e) => e.raceName ?? '—' },
    { key: 'category', header: t('entries.category'), sx: WIDE, cell: (e) => e.category ?? '—' },
    { key: 'state', header: t('entries.state'), cell: (e) => <StateChip kind="entry" state={e.state} /> },
    { key: 'bib', header: t('entries.bib'), cell: (e) => e.bib ?? '—' },
    {
      key: 'fee',
      header: t('entries.fee'),
      align: 'right',
      cell: (e) => (
        <>
          {e.priceCents === null ? '—' : formatMoney(e.priceCents, deposit.currency, i18n.language)}
          {e.paid && <Chip size="small" color="success" label={t('entries.paid')} sx={{ ml: 1 }} />}
        </>
      ),
    },
  ];
  if (onEdit || onRemove)
    columns.push({
      key: 'actions',
      header: t('entries.actions'),
      cellSx: () => ({ whiteSpace: 'nowrap' }),
      cell: (e) => (
        <>
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
        </>
      ),
    });
  return (
    <DataTable
      label={t('entries.title')}
      columns={columns}
      rows={entries}
      getRowKey={(e) => e.id}
      getRowProps={(e) => ({ 'data-testid': `entry-${e.id}` })}
    />
  );
}
