import {
  Box,
  Button,
  MenuItem,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type RacedayRace, type UnknownRunner, useRacedayMutation, useUnknown } from '../api/raceday.ts';

/** Reads whose chip or bib is nobody's, each with "assign to bib" (a chip swap on race day). */
export function UnknownChips({ db, races }: { db: string; races: RacedayRace[] }) {
  const { t } = useTranslation('raceday');
  const unknown = useUnknown(db);
  const rows = unknown.data ?? [];
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {t('unknown.title')}
      </Typography>
      {rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('unknown.none')}
        </Typography>
      ) : (
        <Table size="small" aria-label={t('unknown.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('unknown.chip')}</TableCell>
              <TableCell align="right">{t('devices.reads')}</TableCell>
              <TableCell>{t('unknown.assign')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.slice(0, 50).map((r) => (
              <UnknownLine key={`${r.chip}/${r.bib}`} db={db} races={races} row={r} />
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}

function UnknownLine({ db, races, row }: { db: string; races: RacedayRace[]; row: UnknownRunner }) {
  const { t } = useTranslation('raceday');
  const [bib, setBib] = useState('');
  const [raceId, setRaceId] = useState(races[0]?.id ?? '');
  const assign = useRacedayMutation<{ chip: string; raceId: string; bib: string }>(db, '/unknown/assign');
  return (
    <TableRow>
      <TableCell sx={{ fontFamily: 'monospace' }}>{row.chip ?? `#${row.bib}`}</TableCell>
      <TableCell align="right">{row.reads}</TableCell>
      <TableCell>
        {row.chip ? (
          <Box
            component="form"
            sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}
            onSubmit={(e) => {
              e.preventDefault();
              assign.mutate({ body: { chip: row.chip!, raceId, bib } });
            }}
          >
            {races.length > 1 && (
              <TextField
                select
                size="small"
                value={raceId}
                onChange={(e) => setRaceId(e.target.value)}
                label={t('start.race')}
              >
                {races.map((r) => (
                  <MenuItem key={r.id} value={r.id}>
                    {r.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <TextField
              size="small"
              label={t('desk.bib')}
              value={bib}
              onChange={(e) => setBib(e.target.value)}
              sx={{ width: 110 }}
            />
            <Button type="submit" size="small" disabled={!bib || assign.isPending}>
              {t('unknown.assignButton')}
            </Button>
            {assign.isError && (
              <Typography role="alert" color="error" variant="caption">
                {(assign.error as Error).message}
              </Typography>
            )}
          </Box>
        ) : (
          <Typography variant="caption" color="text.secondary">
            {t('unknown.bibOnly')}
          </Typography>
        )}
      </TableCell>
    </TableRow>
  );
}
