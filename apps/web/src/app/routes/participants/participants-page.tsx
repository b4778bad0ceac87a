import {
  mdiAccountMultipleCheck,
  mdiAccountPlus,
  mdiDownload,
  mdiFileUpload,
  mdiMagnify,
  mdiNumeric,
} from '@mdi/js';
import {
  Alert,
  Button,
  FormControlLabel,
  InputAdornment,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import type { ConsoleParticipant, ParticipantSort } from '@tempora/contracts';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { announceSaved } from '../../../features/console/components/form-state.tsx';
import {
  downloadParticipants,
  type GridFilter,
  useAccess,
  useDeleteParticipant,
  useParticipantPages,
  useRaces,
  useUpdateParticipant,
} from '../../../features/participants/api/participants.ts';
import { BulkEditDialog } from '../../../features/participants/components/bulk-edit-dialog.tsx';
import {
  AddParticipantDialog,
  AuditDialog,
  BibDialog,
  errorText,
} from '../../../features/participants/components/participant-dialogs.tsx';
import {
  GRID_EXPORT_COLUMNS,
  ParticipantGrid,
} from '../../../features/participants/components/participant-grid.tsx';

/**
 * `/console/events/:eventId/participants` (requireAuth): the runners of an event's races in a
 * virtualised grid with server-side search, sort, filters and paging; inline edit, add, delete,
 * a runner's history, bibs from a range, and the way to the imports.
 */
export default function ParticipantsPage() {
  const { eventId = '' } = useParams();
  const { t, i18n } = useTranslation('participants');
  const races = useRaces(eventId);
  const access = useAccess(eventId);
  const canManage = access.data?.canManage ?? false;
  const [query, setQuery] = useState('');
  const q = useDeferredValue(query.trim());
  const [race, setRace] = useState('');
  const [category, setCategory] = useState('');
  const [status, setStatus] = useState('');
  const [withoutBib, setWithoutBib] = useState(false);
  const [sort, setSort] = useState<ParticipantSort>('bib');
  const [dir, setDir] = useState<'asc' | 'desc'>('asc');
  const filter: GridFilter = {
    ...(q ? { q } : {}),
    ...(race ? { race } : {}),
    ...(category ? { category } : {}),
    ...(status ? { status: status as GridFilter['status'] } : {}),
    ...(withoutBib ? { bib: 'none' as const } : {}),
    sort,
    dir,
  };
  const pages = useParticipantPages(eventId, filter);
  const update = useUpdateParticipant(eventId);
  const remove = useDeleteParticipant(eventId);
  const [dialog, setDialog] = useState<'add' | 'bibs' | 'bulk' | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);
  const [exportError, setExportError] = useState<unknown>(null);
  const onSelect = useCallback(
    (ids: readonly string[], on: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    [],
  );
  const exportGrid = async (format: 'csv' | 'xlsx') => {
    setExporting(format);
    setExportError(null);
    try {
      await downloadParticipants(
        eventId,
        filter,
        GRID_EXPORT_COLUMNS,
        format,
        i18n.language === 'en' ? 'en' : 'fr',
      );
    } catch (e) {
      setExportError(e);
    } finally {
      setExporting(null);
    }
  };
  const [audit, setAudit] = useState<ConsoleParticipant | null>(null);
  const rows = useMemo(() => pages.data?.pages.flatMap((p) => p.rows) ?? [], [pages.data]);
  const total = pages.data?.pages[0]?.total ?? 0;
  const raceNames = useMemo(() => new Map((races.data ?? []).map((r) => [r.id, r.name])), [races.data]);
  const categories = (races.data ?? []).filter((r) => !race || r.id === race).flatMap((r) => r.categories);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const needMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const onSort = (next: ParticipantSort) => {
    setDir(next === sort && dir === 'asc' ? 'desc' : 'asc');
    setSort(next);
  };
  if (races.isPending) return <PageLoading />;
  if (races.isError) return <PageError error={races.error} />;
  const base = `/console/events/${encodeURIComponent(eventId)}/participants`;
  return (
    <>
      <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h2" sx={{ flexGrow: 1, fontWeight: 600 }}>
          {t('title')}
        </Typography>
        {canManage && (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button
              variant="contained"
              startIcon={<MdiIcon path={mdiAccountPlus} />}
              onClick={() => setDialog('add')}
              disabled={!races.data.length}
            >
              {t('actions.add')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<MdiIcon path={mdiNumeric} />}
              onClick={() => setDialog('bibs')}
              disabled={!races.data.length}
            >
              {t('actions.bibs')}
            </Button>
            <Button
              variant="outlined"
              component={RouterLink}
              to={`${base}/import`}
              startIcon={<MdiIcon path={mdiFileUpload} />}
            >
              {t('actions.import')}
            </Button>
          </Stack>
        )}
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ flexWrap: 'wrap' }}
          role="group"
          aria-label={t('export.label')}
        >
          {(['csv', 'xlsx'] as const).map((format) => (
            <Button
              key={format}
              variant="text"
              startIcon={<MdiIcon path={mdiDownload} />}
              onClick={() => void exportGrid(format)}
              disabled={exporting !== null || total === 0}
            >
              {exporting === format ? t('export.preparing') : t(`export.${format}`)}
            </Button>
          ))}
        </Stack>
      </Stack>
      {exportError !== null && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {errorText(exportError)}
        </Alert>
      )}
      {canManage && selected.size > 0 && (
        <Alert
          severity="info"
          icon={false}
          sx={{ mb: 1, alignItems: 'center' }}
          action={
            <Stack direction="row" spacing={1}>
              <Button
                variant="contained"
                size="small"
                startIcon={<MdiIcon path={mdiAccountMultipleCheck} />}
                onClick={() => setDialog('bulk')}
              >
                {t('bulk.open')}
              </Button>
              <Button size="small" color="inherit" onClick={() => setSelected(new Set())}>
                {t('bulk.clear')}
              </Button>
            </Stack>
          }
        >
          <span role="status">{t('bulk.selected', { count: selected.size })}</span>
        </Alert>
      )}
      {!races.data.length && <Alert severity="info">{t('noRace')}</Alert>}
      <Stack
        direction="row"
        spacing={1.5}
        useFlexGap
        sx={{ mb: 1.5, flexWrap: 'wrap', alignItems: 'center' }}
      >
        <TextField
          size="small"
          type="search"
          label={t('search')}
          placeholder={t('searchPlaceholder')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <MdiIcon path={mdiMagnify} fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
          sx={{ flex: '1 1 220px', maxWidth: 340 }}
        />
        <TextField
          select
          size="small"
          label={t('fields.raceId')}
          value={race}
          onChange={(e) => {
            setRace(e.target.value);
            setCategory('');
          }}
          sx={{ minWidth: 140 }}
        >
          <MenuItem value="">{t('all')}</MenuItem>
          {races.data.map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('fields.category')}
          value={category}
          onChange={(e) => setCategory(e.target.value)}
          sx={{ minWidth: 140 }}
        >
          <MenuItem value="">{t('all')}</MenuItem>
          {categories.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('fields.status')}
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          sx={{ minWidth: 130 }}
        >
          <MenuItem value="">{t('all')}</MenuItem>
          {(['registered', 'DNS', 'DNF', 'DSQ'] as const).map((s) => (
            <MenuItem key={s} value={s}>
              {t(`status.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={<Switch checked={withoutBib} onChange={(e) => setWithoutBib(e.target.checked)} />}
          label={t('withoutBib')}
        />
        <Typography variant="body2" color="text.secondary" role="status" aria-live="polite">
          {pages.isFetching && !pages.data ? t('loading') : t('count', { count: total })}
        </Typography>
      </Stack>
      {(update.isError || remove.isError) && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {errorText(update.error ?? remove.error)}
        </Alert>
      )}
      {pages.isError ? (
        <PageError error={pages.error} />
      ) : (
        <ParticipantGrid
          rows={rows}
          total={total}
          raceNames={raceNames}
          sort={sort}
          dir={dir}
          onSort={onSort}
          onNeedMore={needMore}
          onEdit={async (id, patch) => {
            await update.mutateAsync({ id, patch });
            announceSaved();
          }}
          onDelete={(row) => {
            if (window.confirm(t('confirmDelete', { name: `${row.firstName} ${row.lastName}` })))
              remove.mutate(row.id);
          }}
          onAudit={setAudit}
          canEdit={canManage}
          {...(canManage ? { selected, onSelect } : {})}
        />
      )}
      {dialog === 'add' && (
        <AddParticipantDialog eventId={eventId} races={races.data} open onClose={() => setDialog(null)} />
      )}
      {dialog === 'bibs' && (
        <BibDialog eventId={eventId} races={races.data} open onClose={() => setDialog(null)} />
      )}
      {dialog === 'bulk' && (
        <BulkEditDialog
          eventId={eventId}
          ids={[...selected]}
          races={races.data}
          onClose={() => setDialog(null)}
          onSaved={(outcome) => {
            if (outcome.updated > 0) announceSaved();
            // The refused stay selected, to be looked at or changed otherwise.
            setSelected(new Set(outcome.refused.map((r) => r.id)));
          }}
        />
      )}
      <AuditDialog eventId={eventId} participant={audit} onClose={() => setAudit(null)} />
    </>
  );
}
