import {
  Button,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { type AuditEntry, useAudit, useRacedayMutation } from '../api/raceday.ts';
import { formatClock } from '../time.ts';

const UNDOABLE = new Set(['void', 'restore', 'edit', 'add', 'status', 'gun']);

function detail(e: AuditEntry): string {
  const after = (e.after ?? {}) as Record<string, unknown>;
  if (e.action === 'status') return String(after.status ?? '');
  if (e.action === 'gun')
    return after.gunTimeMs ? new Date(Number(after.gunTimeMs)).toISOString().slice(11, 23) : '';
  if (e.action === 'assign') return String(after.chip ?? '');
  return e.passingId ?? '';
}

/** Every correction with who, when and why; each undoable (the undo is audited too). */
export function AuditLog({ db, timeZone }: { db: string; timeZone?: string | undefined }) {
  const { t } = useTranslation('raceday');
  const audit = useAudit(db);
  const undo = useRacedayMutation<{ reason: string }>(db, '');
  if (audit.isPending) return <PageLoading />;
  if (audit.isError) return <PageError error={audit.error} />;
  if (!audit.data.length)
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        {t('audit.none')}
      </Typography>
    );
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={t('audit.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('audit.when')}</TableCell>
            <TableCell>{t('audit.who')}</TableCell>
            <TableCell>{t('audit.action')}</TableCell>
            <TableCell>{t('desk.bib')}</TableCell>
            <TableCell>{t('audit.detail')}</TableCell>
            <TableCell>{t('correct.reason')}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {audit.data.map((e) => (
            <TableRow key={e.id} data-testid="audit-row" data-action={e.action}>
              <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                {formatClock(Date.parse(e.at), timeZone, false)}
              </TableCell>
              <TableCell>{e.actorEmail ?? (e.actor ? e.actor.slice(0, 8) : t('audit.system'))}</TableCell>
              <TableCell>
                {t(`audit.actions.${e.action}`, { defaultValue: e.action })}
                {e.undoOf && ` (${t('audit.undo')})`}
              </TableCell>
              <TableCell>{e.bib ?? ''}</TableCell>
              <TableCell
                sx={{
                  fontFamily: 'monospace',
                  fontSize: 12,
                  maxWidth: 180,
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                }}
              >
                {detail(e)}
              </TableCell>
              <TableCell>{e.reason}</TableCell>
              <TableCell>
                {e.undoneBy ? (
                  <Typography variant="caption" color="text.secondary">
                    {t('audit.undone')}
                  </Typography>
                ) : (
                  UNDOABLE.has(e.action) &&
                  !e.undoOf && (
                    <Button
                      size="small"
                      disabled={undo.isPending}
                      onClick={() => {
                        const reason = window.prompt(t('audit.undoReason')) ?? '';
                        undo.mutate({ body: { reason }, path: `/audit/${e.id}/undo` });
                      }}
                    >
                      {t('audit.undo')}
                    </Button>
                  )
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
