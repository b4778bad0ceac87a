import {
  Alert,
  Box,
  Button,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { DocumentDetail } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table.tsx';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { downloadReport, useReport } from '../api/documents.ts';
import { issueText } from './issue-text.ts';
import { formatFees } from './status-chip.tsx';

/** `document/{id}/report`: totals by race and category, fees, rows still in error; PDF and XLSX exports. */
export function DocumentReportView({ document: d }: { document: DocumentDetail }) {
  const { t, i18n } = useTranslation('confirmation');
  const report = useReport(d.id);
  const [error, setError] = useState<string | null>(null);
  if (report.isPending) return <PageLoading />;
  if (report.isError) return <PageError error={report.error} />;
  const r = report.data;
  const fees = (cents: number) => formatFees(cents, i18n.language);
  const download = (kind: 'pdf' | 'xlsx') =>
    downloadReport(d.id, kind, d.title, i18n.language).catch((err: Error) =>
      setError(t('errors.generic', { message: err.message })),
    );
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" onClick={() => download('pdf')}>
          {t('report.pdf')}
        </Button>
        <Button variant="outlined" onClick={() => download('xlsx')}>
          {t('report.xlsx')}
        </Button>
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
        <Typography component="h2" variant="h6">
          {t('report.byRace')}
        </Typography>
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label={t('report.byRace')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('report.race')}</TableCell>
                <TableCell align="right">{t('counts.confirmed')}</TableCell>
                <TableCell align="right">{t('counts.pending')}</TableCell>
                <TableCell align="right">{t('counts.rejected')}</TableCell>
                <TableCell align="right">{t('report.unitPrice')}</TableCell>
                <TableCell align="right">{t('counts.fees')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {r.byRace.map((x) => (
                <TableRow key={x.raceId}>
                  <TableCell>{x.raceName}</TableCell>
                  <TableCell align="right">{x.confirmed}</TableCell>
                  <TableCell align="right">{x.pending}</TableCell>
                  <TableCell align="right">{x.rejected}</TableCell>
                  <TableCell align="right">{fees(x.unitPriceCents)}</TableCell>
                  <TableCell align="right">{fees(x.feesCents)}</TableCell>
                </TableRow>
              ))}
              <TableRow sx={{ '& td': { fontWeight: 700 } }}>
                <TableCell>{t('report.total')}</TableCell>
                <TableCell align="right">{r.totals.confirmed}</TableCell>
                <TableCell align="right">{r.totals.pending}</TableCell>
                <TableCell align="right">{r.totals.rejected}</TableCell>
                <TableCell />
                <TableCell align="right" data-testid="report-fees">
                  {fees(r.totals.feesCents)}
                </TableCell>
              </TableRow>
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
        <Typography component="h2" variant="h6">
          {t('report.byCategory')}
        </Typography>
        <DataTable
          label={t('report.byCategory')}
          columns={[
            { key: 'race', header: t('report.race'), cell: (c) => c.raceName },
            { key: 'category', header: t('report.category'), cell: (c) => c.category },
            { key: 'confirmed', header: t('counts.confirmed'), align: 'right', cell: (c) => c.confirmed },
          ]}
          rows={r.byCategory}
          getRowKey={(c) => `${c.raceId}-${c.category}`}
        />
      </Paper>
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
        <Typography component="h2" variant="h6">
          {t('report.errors')}
        </Typography>
        {r.errors.length === 0 ? (
          <Typography>{t('report.noErrors')}</Typography>
        ) : (
          <Box component="ul" sx={{ pl: 2, m: 0 }}>
            {r.errors.map((e) => (
              <li key={e.position}>
                {t('report.row')} {e.position} — {e.name}:{' '}
                {e.issues
                  .map((i) => `${t(`fields.${i.field}`)}: ${issueText(t, i, { duplicateOf: null })}`)
                  .join('; ')}
              </li>
            ))}
          </Box>
        )}
      </Paper>
    </Stack>
  );
}
