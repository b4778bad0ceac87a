import {
  Link,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { DocumentSummary } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
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
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={t('home.heading')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('home.document')}</TableCell>
            {showEvent && <TableCell>{t('home.event')}</TableCell>}
            <TableCell>{t('home.status')}</TableCell>
            <TableCell align="right">{t('counts.rows')}</TableCell>
            <TableCell align="right">{t('counts.confirmed')}</TableCell>
            <TableCell align="right">{t('counts.toFix')}</TableCell>
            <TableCell align="right">{t('counts.fees')}</TableCell>
            <TableCell>{t('home.updated')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {documents.map((d) => (
            <TableRow key={d.id} hover>
              <TableCell sx={{ minWidth: 180 }}>
                <Link
                  component={RouterLink}
                  to={paths.confirmationDocument(d.id, 'home')}
                  sx={{ fontWeight: 600 }}
                >
                  {d.title}
                </Link>
                <Typography variant="body2" color="text.secondary">
                  {d.senderName} · {t(`senderKind.${d.senderKind}`)}
                </Typography>
              </TableCell>
              {showEvent && (
                <TableCell sx={{ minWidth: 140 }}>
                  <Link component={RouterLink} to={paths.confirmationEvent(d.eventId)}>
                    {d.eventName}
                  </Link>
                </TableCell>
              )}
              <TableCell>
                <StatusChip status={d.status} />
              </TableCell>
              <TableCell align="right">{d.counts.rows}</TableCell>
              <TableCell align="right">{d.counts.confirmed}</TableCell>
              <TableCell
                align="right"
                sx={{
                  color: d.counts.toFix ? 'error.main' : undefined,
                  fontWeight: d.counts.toFix ? 600 : undefined,
                }}
              >
                {d.counts.toFix}
              </TableCell>
              <TableCell align="right">{formatFees(d.feesCents, i18n.language)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {new Date(d.updatedAt).toLocaleDateString(i18n.language)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
