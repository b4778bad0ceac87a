import { Alert, Box, Chip, Stack, Typography } from '@mui/material';
import { type ImportPreview, importIssueKey, type RowIssue } from '@tempora/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/** An issue of a row as a sentence: a duplicate names its other line or the runner registered. */
export function issueText(t: TFunction<'participants'>, issue: RowIssue): string {
  return t(`issues.${importIssueKey(issue)}`, {
    field: issue.field ? t(`fields.${issue.field}`) : '',
    value: issue.value ?? '',
    line: issue.otherLine ?? '',
    name: issue.otherName ?? '',
  });
}

/**
 * What the preview says once for the whole file (issue 29), not on every row: where the missing
 * bibs will come from, and that the race has no bib range or no categories.
 */
function RaceNotices({ race }: { race: ImportPreview['race'] }) {
  const { t } = useTranslation('participants');
  return (
    <Stack spacing={1} sx={{ my: 1 }} data-testid="import-notices">
      {race.bibRange && race.withoutBib > 0 && (
        <Alert severity="info">{t('import.noticeRange', { count: race.withoutBib, ...race.bibRange })}</Alert>
      )}
      {!race.bibRange && (
        <Alert severity="warning">
          {race.withoutBib > 0
            ? t('import.noticeNoRange', { count: race.withoutBib })
            : t('import.noticeNoRangeAll')}
        </Alert>
      )}
      {race.categories === 0 && <Alert severity="warning">{t('import.noticeNoCategories')}</Alert>}
    </Stack>
  );
}

/** How many problem rows are drawn at once (the counts cover them all). */
const SHOWN = 500;

/** The preview: counts, the notices said once, every row's errors and warnings. */
export function PreviewSection({ preview, children }: { preview: ImportPreview; children: React.ReactNode }) {
  const { t } = useTranslation('participants');
  return (
    <Box component="section" aria-labelledby="preview-title">
      <Typography id="preview-title" variant="h6" component="h2">
        {t('import.previewTitle')}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ my: 1, flexWrap: 'wrap' }} role="status">
        <Chip label={t('import.total', { count: preview.total })} />
        <Chip color="success" label={t('import.valid', { count: preview.valid })} />
        <Chip color="error" label={t('import.invalid', { count: preview.invalid })} />
        <Chip color="warning" label={t('import.warned', { count: preview.warned })} />
      </Stack>
      <RaceNotices race={preview.race} />
      {preview.problems.length > 0 && (
        <Box
          component="ul"
          aria-label={t('import.problems')}
          data-testid="import-problems"
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            maxHeight: 360,
            overflow: 'auto',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
          }}
        >
          {preview.problems.slice(0, SHOWN).map((row) => (
            <Box
              component="li"
              key={row.line}
              sx={{ px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider' }}
            >
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {t('import.line', { line: row.line })} —{' '}
                {[row.values.bib, row.values.firstName, row.values.lastName].filter(Boolean).join(' ')}
              </Typography>
              {row.errors.map((e) => (
                <Typography key={`e${e.code}${e.field}`} variant="body2" color="error.main">
                  ✕ {issueText(t, e)}
                </Typography>
              ))}
              {row.warnings.map((w) => (
                <Typography key={`w${w.code}${w.field}`} variant="body2" sx={{ color: 'warning.dark' }}>
                  ⚠ {issueText(t, w)}
                </Typography>
              ))}
            </Box>
          ))}
          {preview.problems.length > SHOWN && (
            <Box component="li" sx={{ p: 1.5 }}>
              <Typography variant="body2">
                {t('import.more', { count: preview.problems.length - SHOWN })}
              </Typography>
            </Box>
          )}
        </Box>
      )}
      <Box sx={{ mt: 2 }}>{children}</Box>
    </Box>
  );
}
