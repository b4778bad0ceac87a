import { mdiArrowDown, mdiArrowUp, mdiDelete, mdiPlus } from '@mdi/js';
import { Box, Button, IconButton, MenuItem, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ConsoleRace, pointKinds } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { replacePoints } from '../api/races.ts';
import { fieldError, SaveError } from './form-state.tsx';

interface Row {
  /** Stable React key of an edited row. */
  uid: number;
  key: string;
  en: string;
  fr: string;
  km: string;
  kind: (typeof pointKinds)[number];
  lat: number | null;
  lon: number | null;
}

let nextUid = 0;

/** The ordered timing points of a race: key, names in both languages, distance, kind. */
export function PointsEditor({ race, editable }: { race: ConsoleRace; editable: boolean }) {
  const { t } = useTranslation('console');
  const client = useQueryClient();
  const [rows, setRows] = useState<Row[]>(() =>
    race.points.map((p) => ({
      uid: ++nextUid,
      key: p.key,
      en: p.name.en,
      fr: p.name.fr,
      km: String(p.distanceM / 1000),
      kind: p.kind,
      lat: p.lat,
      lon: p.lon,
    })),
  );
  const save = useMutation({
    mutationFn: () =>
      replacePoints(race.id, {
        points: rows.map((r) => ({
          key: r.key,
          name: { en: r.en, fr: r.fr || r.en },
          distanceM: Math.round(Number(r.km.replace(',', '.')) * 1000),
          kind: r.kind,
          lat: r.lat,
          lon: r.lon,
        })),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['console'] }),
  });
  const setRow = (k: number, patch: Partial<Row>) =>
    setRows((rs) => rs.map((r, j) => (j === k ? { ...r, ...patch } : r)));
  const move = (k: number, by: number) =>
    setRows((rs) => {
      const next = rs.slice();
      const [row] = next.splice(k, 1);
      next.splice(k + by, 0, row!);
      return next;
    });
  const add = () =>
    setRows((rs) => {
      const finish = rs.findIndex((r) => r.kind === 'finish');
      const at = finish < 0 ? rs.length : finish;
      const row: Row = {
        uid: ++nextUid,
        key: `p${rs.length + 1}`,
        en: '',
        fr: '',
        km: '',
        kind: 'split',
        lat: null,
        lon: null,
      };
      return [...rs.slice(0, at), row, ...rs.slice(at)];
    });
  const err = (k: number, field: string) => fieldError(save.error, `points.${k}.${field}`);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('points.title')}>
      <SaveError error={save.error} />
      <Stack spacing={1.5} component="ol" sx={{ p: 0, m: 0, listStyle: 'none' }}>
        {rows.map((r, k) => (
          <Box
            component="li"
            key={r.uid}
            sx={{
              display: 'grid',
              gap: 1,
              gridTemplateColumns: { xs: '1fr 1fr', md: '110px 1fr 1fr 110px 130px auto' },
              gridTemplateAreas: {
                xs: '"key kind" "en fr" "km btn"',
                md: '"key en fr km kind btn"',
              },
              alignItems: 'start',
              pb: 1.5,
              borderBottom: 1,
              borderColor: 'divider',
            }}
            data-testid={`point-row-${k}`}
          >
            <TextField
              size="small"
              label={t('points.key')}
              value={r.key}
              onChange={(e) => setRow(k, { key: e.target.value })}
              disabled={!editable}
              error={!!err(k, 'key')}
              helperText={err(k, 'key')}
              sx={{ gridArea: 'key' }}
            />
            <TextField
              size="small"
              label={t('points.kind')}
              select
              value={r.kind}
              onChange={(e) => setRow(k, { kind: e.target.value as Row['kind'] })}
              disabled={!editable}
              error={!!err(k, 'kind')}
              helperText={err(k, 'kind')}
              sx={{ gridArea: 'kind' }}
            >
              {pointKinds.map((kind) => (
                <MenuItem key={kind} value={kind}>
                  {t(`points.kinds.${kind}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              size="small"
              label={t('points.nameEn')}
              value={r.en}
              onChange={(e) => setRow(k, { en: e.target.value })}
              disabled={!editable}
              slotProps={{ htmlInput: { lang: 'en' } }}
              error={!!err(k, 'name.en')}
              helperText={err(k, 'name.en')}
              sx={{ gridArea: 'en' }}
            />
            <TextField
              size="small"
              label={t('points.nameFr')}
              value={r.fr}
              onChange={(e) => setRow(k, { fr: e.target.value })}
              disabled={!editable}
              slotProps={{ htmlInput: { lang: 'fr' } }}
              error={!!err(k, 'name.fr')}
              helperText={err(k, 'name.fr')}
              sx={{ gridArea: 'fr' }}
            />
            <TextField
              size="small"
              label={t('points.km')}
              value={r.km}
              onChange={(e) => setRow(k, { km: e.target.value })}
              disabled={!editable}
              inputMode="decimal"
              error={!!err(k, 'distanceM')}
              helperText={err(k, 'distanceM')}
              sx={{ gridArea: 'km' }}
            />
            <Box
              sx={{
                display: 'flex',
                gridArea: 'btn',
                justifyContent: 'flex-end',
              }}
            >
              <IconButton
                aria-label={t('points.up', { key: r.key })}
                onClick={() => move(k, -1)}
                disabled={!editable || k === 0}
              >
                <MdiIcon path={mdiArrowUp} />
              </IconButton>
              <IconButton
                aria-label={t('points.down', { key: r.key })}
                onClick={() => move(k, 1)}
                disabled={!editable || k === rows.length - 1}
              >
                <MdiIcon path={mdiArrowDown} />
              </IconButton>
              <IconButton
                aria-label={t('points.remove', { key: r.key })}
                onClick={() => setRows((rs) => rs.filter((_, j) => j !== k))}
                disabled={!editable || rows.length === 1}
              >
                <MdiIcon path={mdiDelete} />
              </IconButton>
            </Box>
          </Box>
        ))}
      </Stack>
      {editable && (
        <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
          <Button startIcon={<MdiIcon path={mdiPlus} />} onClick={add}>
            {t('points.add')}
          </Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {t('points.save')}
          </Button>
        </Stack>
      )}
    </form>
  );
}
