import { mdiArrowDown, mdiArrowUp, mdiDelete, mdiPlus } from '@mdi/js';
import { Box, Button, IconButton, MenuItem, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ConsoleRace, pointKinds } from '@tempora/contracts';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { replacePoints } from '../api/races.ts';
import { EditorRow, RowField, useEditableRows } from './editable-rows.tsx';
import { announceSaved, fieldError, SaveError } from './form-state.tsx';
import { kmToMetres, metresToKm } from './race-fields.tsx';

interface Row {
  key: string;
  en: string;
  fr: string;
  km: string;
  kind: (typeof pointKinds)[number];
  lat: number | null;
  lon: number | null;
}

/** The ordered timing points of a race: key, names in both languages, distance, kind. */
export function PointsEditor({ race, editable }: { race: ConsoleRace; editable: boolean }) {
  const { t, i18n } = useTranslation('console');
  const client = useQueryClient();
  const { rows, patch, insert, remove, move } = useEditableRows<Row>(() =>
    race.points.map((p) => ({
      key: p.key,
      en: p.name.en,
      fr: p.name.fr,
      km: metresToKm(p.distanceM, i18n.language),
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
          distanceM: kmToMetres(r.km),
          kind: r.kind,
          lat: r.lat,
          lon: r.lon,
        })),
      }),
    onSuccess: () => {
      announceSaved();
      return client.invalidateQueries({ queryKey: ['console'] });
    },
  });
  // A new point goes before the finish.
  const add = () =>
    insert(
      { key: `p${rows.length + 1}`, en: '', fr: '', km: '', kind: 'split', lat: null, lon: null },
      (rs) => {
        const finish = rs.findIndex((r) => r.kind === 'finish');
        return finish < 0 ? rs.length : finish;
      },
    );
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
          <EditorRow
            key={r.uid}
            columns={{ xs: '1fr 1fr', md: '110px 1fr 1fr 110px 130px auto' }}
            areas={{ xs: '"key kind" "en fr" "km btn"', md: '"key en fr km kind btn"' }}
            sx={{ pb: 1.5, borderBottom: 1, borderColor: 'divider' }}
            data-testid={`point-row-${k}`}
          >
            <RowField
              area="key"
              label={t('points.key')}
              value={r.key}
              onValue={(key) => patch(k, { key })}
              disabled={!editable}
              error={err(k, 'key')}
            />
            <RowField
              area="kind"
              label={t('points.kind')}
              select
              value={r.kind}
              onValue={(kind) => patch(k, { kind: kind as Row['kind'] })}
              disabled={!editable}
              error={err(k, 'kind')}
            >
              {pointKinds.map((kind) => (
                <MenuItem key={kind} value={kind}>
                  {t(`points.kinds.${kind}`)}
                </MenuItem>
              ))}
            </RowField>
            <RowField
              area="en"
              label={t('points.nameEn')}
              value={r.en}
              onValue={(en) => patch(k, { en })}
              disabled={!editable}
              slotProps={{ htmlInput: { lang: 'en' } }}
              error={err(k, 'name.en')}
            />
            <RowField
              area="fr"
              label={t('points.nameFr')}
              value={r.fr}
              onValue={(fr) => patch(k, { fr })}
              disabled={!editable}
              slotProps={{ htmlInput: { lang: 'fr' } }}
              error={err(k, 'name.fr')}
            />
            <RowField
              area="km"
              label={t('points.km')}
              value={r.km}
              onValue={(km) => patch(k, { km })}
              disabled={!editable}
              inputMode="decimal"
              error={err(k, 'distanceM')}
            />
            <Box sx={{ display: 'flex', gridArea: 'btn', justifyContent: 'flex-end' }}>
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
                onClick={() => remove(k)}
                disabled={!editable || rows.length === 1}
              >
                <MdiIcon path={mdiDelete} />
              </IconButton>
            </Box>
          </EditorRow>
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
