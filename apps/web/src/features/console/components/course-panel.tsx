import { Alert, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleRace } from '@tempora/contracts';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileDrop } from '../../../components/file-drop.tsx';
import { PageLoading } from '../../../components/page-state.tsx';
import { deleteCourse, placePoints, uploadCourse } from '../api/races.ts';
import { SaveError } from './form-state.tsx';

/** Leaflet and its stylesheet load with the course panel only. */
const CourseMap = lazy(() => import('./course-map.tsx').then((m) => ({ default: m.CourseMap })));

/** Upload a GPX or GeoJSON course, see it on the map, place timing points on it. */
export function CoursePanel({ race, editable }: { race: ConsoleRace; editable: boolean }) {
  const { t, i18n } = useTranslation('console');
  const client = useQueryClient();
  const [selected, setSelected] = useState<string | null>(null);
  const done = () => client.invalidateQueries({ queryKey: ['console', 'race', race.id] });
  const upload = useMutation({ mutationFn: (file: File) => uploadCourse(race.id, file), onSuccess: done });
  const remove = useMutation({ mutationFn: () => deleteCourse(race.id), onSuccess: done });
  const place = useMutation({
    mutationFn: (v: { key: string; lat: number; lon: number }) => placePoints(race.id, { placements: [v] }),
    onSuccess: done,
  });
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  const km = (m: number) => (m / 1000).toLocaleString(i18n.language, { maximumFractionDigits: 2 });
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <FileDrop
          label={race.course ? t('course.replace') : t('course.upload')}
          inputLabel={t('course.file')}
          accept=".gpx,.geojson,.json,application/gpx+xml,application/geo+json,application/json"
          inputTestId="course-file"
          disabled={!editable || upload.isPending}
          onFile={(file) => upload.mutate(file)}
        />
        {race.course && editable && (
          <Button onClick={() => remove.mutate()} disabled={remove.isPending}>
            {t('course.remove')}
          </Button>
        )}
        {race.courseLengthM !== null && (
          <Typography data-testid="course-length">
            {t('course.length', { km: km(race.courseLengthM), race: km(race.distanceM) })}
          </Typography>
        )}
      </Stack>
      <SaveError error={upload.error ?? remove.error ?? place.error} />
      {!race.course && <Alert severity="info">{t('course.none')}</Alert>}
      {race.course && editable && (
        <TextField
          select
          label={t('course.placePoint')}
          value={selected ?? ''}
          onChange={(e) => setSelected(e.target.value || null)}
          helperText={t('course.placeHelp')}
          sx={{ maxWidth: 420 }}
        >
          <MenuItem value="">{t('course.noPoint')}</MenuItem>
          {race.points.map((p) => (
            <MenuItem key={p.key} value={p.key}>
              {p.name[lng]} ({km(p.distanceM)} km)
            </MenuItem>
          ))}
        </TextField>
      )}
      <Suspense fallback={<PageLoading />}>
        <CourseMap
          race={race}
          selected={selected}
          onPick={(lat, lon) => editable && selected && place.mutate({ key: selected, lat, lon })}
        />
      </Suspense>
    </Stack>
  );
}
