import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import type { ImportHistoryEntry } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/money.ts';
import { useImportHistory, useUndoImport } from '../api/imports.ts';
import { errorText } from './participant-dialogs.tsx';
import { RefusedDownloads } from './refused-downloads.tsx';

/**
 * The event's participant imports (issue 29): each with its counts, its refused rows to
 * download, and an undo behind a confirmation. A refused undo (409) lists why, one line per kind
 * of reference, in the interface's language (the field-error map, `fieldErrors:usedBy…`).
 */
export function ImportHistory({ eventId, timeZone }: { eventId: string; timeZone?: string | undefined }) {
  const { t } = useTranslation('participants');
  const list = useImportHistory(eventId);
  const [asked, setAsked] = useState<ImportHistoryEntry | null>(null);
  const [done, setDone] = useState<number | null>(null);
  return (
    <Box component="section" aria-labelledby="import-history-title">
      <Typography id="import-history-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('history.title')}
      </Typography>
      {done !== null && (
        <Alert severity="success" role="status" sx={{ mb: 1 }} onClose={() => setDone(null)}>
          {t('history.done', { count: done })}
        </Alert>
      )}
      {list.isError && <Alert severity="error">{errorText(list.error)}</Alert>}
      {list.data?.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('history.empty')}
        </Typography>
      )}
      {!!list.data?.length && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="import-history">
          {list.data.map((entry) => (
            <HistoryItem
              key={entry.id}
              eventId={eventId}
              entry={entry}
              timeZone={timeZone}
              onUndo={() => setAsked(entry)}
            />
          ))}
        </Box>
      )}
      {asked && (
        <UndoDialog
          eventId={eventId}
          entry={asked}
          onClose={(removed) => {
            setAsked(null);
            if (removed !== undefined) setDone(removed);
          }}
        />
      )}
    </Box>
  );
}

function HistoryItem({
  eventId,
  entry,
  timeZone,
  onUndo,
}: {
  eventId: string;
  entry: ImportHistoryEntry;
  /** The event's zone: the import's time beside the desk's clock (issue 43). */
  timeZone: string | undefined;
  onUndo(): void;
}) {
  const { t, i18n } = useTranslation('participants');
  return (
    <Box component="li" sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        useFlexGap
        sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {t('history.entry', { file: entry.fileName, race: entry.raceName })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('history.counts', {
              imported: entry.imported,
              refused: entry.refused,
              total: entry.total,
              who: entry.actorEmail,
              at: formatDateTime(entry.at, i18n.language, timeZone),
            })}
          </Typography>
          {entry.undoneAt && (
            <Typography variant="body2" sx={{ color: 'warning.dark' }}>
              {t('history.undone', {
                at: formatDateTime(entry.undoneAt, i18n.language, timeZone),
                who: entry.undoneBy ?? '',
              })}
            </Typography>
          )}
        </Box>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', flexShrink: 0 }}>
          {entry.refused > 0 && <RefusedDownloads eventId={eventId} importId={entry.id} />}
          {!entry.undoneAt && (
            <Button
              size="small"
              color="warning"
              variant="outlined"
              onClick={onUndo}
              aria-label={t('history.undoOf', { file: entry.fileName })}
            >
              {t('history.undo')}
            </Button>
          )}
        </Stack>
      </Stack>
    </Box>
  );
}

function UndoDialog({
  eventId,
  entry,
  onClose,
}: {
  eventId: string;
  entry: ImportHistoryEntry;
  onClose(removed?: number): void;
}) {
  const { t } = useTranslation('participants');
  const undo = useUndoImport(eventId);
  const error = undo.error;
  const reasons = error instanceof ApiError ? Object.values(error.fieldErrors).flat() : [];
  return (
    <Dialog open onClose={() => onClose()} aria-labelledby="undo-title" fullWidth maxWidth="sm">
      <DialogTitle id="undo-title">{t('history.confirmTitle', { file: entry.fileName })}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('history.confirmText', { count: entry.imported })}</DialogContentText>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="undo-refused">
            {reasons.length ? (
              <>
                {t('history.refused')}
                <Box component="ul" sx={{ m: 0, pl: 2 }}>
                  {reasons.map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </Box>
              </>
            ) : (
              errorText(error)
            )}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose()}>{t('actions.cancel')}</Button>
        <Button
          color="warning"
          variant="contained"
          disabled={undo.isPending || !!error}
          onClick={() => undo.mutate(entry.id, { onSuccess: (out) => onClose(out.removed) })}
        >
          {t('history.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
