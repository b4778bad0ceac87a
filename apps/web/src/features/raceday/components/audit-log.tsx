import { Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { AuditList } from '../../../components/audit-list.tsx';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { type AuditEntry, useAudit, useRacedayMutation } from '../api/raceday.ts';
import { formatClock } from '../time.ts';

const UNDOABLE = new Set(['void', 'restore', 'edit', 'add', 'status', 'gun']);

function detail(e: AuditEntry, timeZone: string | undefined): string {
  const after = (e.after ?? {}) as Record<string, unknown>;
  if (e.action === 'status') return String(after.status ?? '');
  // The gun as the desk's clock shows it, in the event's zone (issue 43: it was UTC).
  if (e.action === 'gun') return after.gunTimeMs ? formatClock(Number(after.gunTimeMs), timeZone) : '';
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
    <AuditList
      label={t('audit.title')}
      formatTime={(iso) => formatClock(Date.parse(iso), timeZone, false)}
      items={audit.data.map((e) => ({
        id: e.id,
        at: e.at,
        actor: e.actorEmail ?? (e.actor ? e.actor.slice(0, 8) : null),
        action: [
          `${t(`audit.actions.${e.action}`, { defaultValue: e.action })}${e.undoOf ? ` (${t('audit.undo')})` : ''}`,
          e.bib ? `${t('desk.bib')} ${e.bib}` : '',
          detail(e, timeZone),
        ]
          .filter(Boolean)
          .join(' · '),
        details: e.reason ? [t('common:labelled', { label: t('correct.reason'), value: e.reason })] : [],
        dataAction: e.action,
        end: e.undoneBy ? (
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
        ),
      }))}
    />
  );
}
