import { Box, Paper, Typography } from '@mui/material';
import type { VersionDiff } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';

const list = (positions: number[]) =>
  positions.length > 30 ? `${positions.slice(0, 30).join(', ')}…` : positions.join(', ');

/** What changed in the document's latest version: added, removed and changed rows (issue 17). */
export function VersionDiffView({ diff }: { diff: VersionDiff }) {
  const { t } = useTranslation('confirmation');
  const sections: [string, number, string | null, string][] = [
    [
      t('import.added'),
      diff.added.length,
      diff.added.length ? t('import.rowList', { list: list(diff.added) }) : null,
      'success.main',
    ],
    [
      t('import.changed'),
      diff.changed.length,
      diff.changed.length
        ? diff.changed
            .slice(0, 30)
            .map((c) => `${c.position} (${c.fields.map((f) => t(`fields.${f}`)).join(', ')})`)
            .join(' · ')
        : null,
      'warning.main',
    ],
    [
      t('import.removed'),
      diff.removed.length,
      diff.removed.length
        ? diff.removed
            .slice(0, 30)
            .map((r) => (r.confirmed ? t('import.removedConfirmed', r) : `${r.name} (${r.position})`))
            .join(' · ')
        : null,
      'error.main',
    ],
    [t('import.unchanged'), diff.unchanged, null, 'text.secondary'],
  ];
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }} aria-label={t('import.diff')} role="region">
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('import.diff')} — {t('document.version', { version: diff.version })}
      </Typography>
      {sections.map(([label, count, detail, color]) => (
        <Box key={label} sx={{ mb: 1 }}>
          <Typography sx={{ fontWeight: 600, color }}>
            {label}: {count}
          </Typography>
          {detail && <Typography variant="body2">{detail}</Typography>}
        </Box>
      ))}
    </Paper>
  );
}
