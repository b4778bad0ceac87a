import { Link, Typography } from '@mui/material';
import type { DocumentSummary } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/money.ts';
import { formatFees, StatusChip } from './status-chip.tsx';

/** Documents with their counts; scrolls sideways on a phone rather than squeezing the columns. */
export function DocumentsTable({
  documents,
  showEvent = true,
}: {
  documents: DocumentSummary[];
  showEvent?: boolean;
}) {
  const { t, i18n } = useTranslation('confirmation');
  if (!documents.length) return <Typography sx={{ py: 3 }}>{t('home.empty')}</Typography>;
  const columns: DataTableColumn<DocumentSummary>[] = [
    {
      key: 'document',
      header: t('home.document'),
      cellSx: () => ({ minWidth: 180 }),
      cell: (d) => (
        <>
          <Link component={RouterLink} to={paths.confirmationDocument(d.id, 'home')} sx={{ fontWeight: 600 }}>
            {d.title}
          </Link>
          <Typography variant="body2" color="text.secondary">
            {d.senderName} · {t(`senderKind.${d.senderKind}`)}
          </Typography>
        </>
      ),
    },
    ...(showEvent
      ? [
          {
            key: 'event',
            header: t('home.event'),
            cellSx: () => ({ minWidth: 140 }),
            cell: (d: DocumentSummary) => (
              <Link component={RouterLink} to={paths.confirmationEvent(d.eventId)}>
                {d.eventName}
              </Link>
            ),
          },
        ]
      : []),
    { key: 'status', header: t('home.status'), cell: (d) => <StatusChip status={d.status} /> },
    { key: 'rows', header: t('counts.rows'), align: 'right', cell: (d) => d.counts.rows },
    { key: 'confirmed', header: t('counts.confirmed'), align: 'right', cell: (d) => d.counts.confirmed },
    {
      key: 'toFix',
      header: t('counts.toFix'),
      align: 'right',
      cellSx: (d) => ({
        color: d.counts.toFix ? 'error.main' : undefined,
        fontWeight: d.counts.toFix ? 600 : undefined,
      }),
      cell: (d) => d.counts.toFix,
    },
    {
      key: 'fees',
      header: t('counts.fees'),
      align: 'right',
      cell: (d) => formatFees(d.feesCents, i18n.language),
    },
    {
      key: 'updated',
      header: t('home.updated'),
      cellSx: () => ({ whiteSpace: 'nowrap' }),
      cell: (d) => formatDateTime(d.updatedAt, i18n.language, undefined, { time: false }),
    },
  ];
  return (
    <DataTable label={t('home.heading')} columns={columns} rows={documents} getRowKey={(d) => d.id} hover />
  );
}
