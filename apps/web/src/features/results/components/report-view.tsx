import { mdiMagnify } from '@mdi/js';
import { InputAdornment, Stack, TextField, Typography } from '@mui/material';
import { type ReactNode, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import type { ReportSource } from '../api/get-report.ts';
import { useFavorites } from '../hooks/use-favorites.ts';
import { useLiveReport } from '../hooks/use-live-report.ts';
import { searchRows } from '../patch.ts';
import { ReportTable } from './report-table.tsx';

/** What a live report page shows. */
export interface ReportViewProps {
  source: ReportSource;
  /** The event whose favourites the stars keep. */
  eventId: string;
  /** Page chrome (title, breadcrumbs); off for the embeddable `table` route. */
  chrome: boolean;
  /** Breadcrumbs before the report's title. */
  crumbs?: [string, string?][];
  /** Controls beside the search (the export menu), given the search typed. */
  actions?: (query: string) => ReactNode;
}

/** A live report: title, search-as-you-type (name or bib, exact bib first), the virtual table. */
export function ReportView({ source, eventId, chrome, crumbs = [], actions }: ReportViewProps) {
  const { t, i18n } = useTranslation('results');
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  const report = useLiveReport(source);
  const { favorites, toggle } = useFavorites(eventId);
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const data = report.data;
  const rows = useMemo(
    () => (data ? searchRows(data.rows, data.keyField, deferred, data.columns) : []),
    [data, deferred],
  );
  if (report.isPending) return <PageLoading />;
  if (report.isError || !data) return <PageError error={report.error} />;
  return (
    <>
      {chrome && <PageHeader title={data.title[lng]} crumbs={[...crumbs, [data.title[lng]]]} />}
      <Stack
        direction="row"
        spacing={1.5}
        useFlexGap
        sx={{ mb: 1, alignItems: 'center', flexWrap: 'wrap', px: chrome ? 0 : 1, pt: chrome ? 0 : 1 }}
      >
        <TextField
          size="small"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          label={t('search')}
          placeholder={t('searchPlaceholder')}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <MdiIcon path={mdiMagnify} fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
          sx={{ flex: '1 1 220px', maxWidth: 360 }}
        />
        <Typography variant="body2" color="text.secondary" role="status" aria-live="polite">
          {deferred.trim()
            ? t('matchCount', { count: rows.length, total: data.rows.length })
            : t('rowCount', { count: data.rows.length })}
        </Typography>
        {actions?.(deferred)}
      </Stack>
      <ReportTable
        table={data}
        rows={rows}
        favorites={favorites}
        onToggleFavorite={toggle}
        changed={report.changed}
        height={chrome ? undefined : 'calc(100dvh - 64px)'}
      />
    </>
  );
}
