import { mdiDelete, mdiPlus } from '@mdi/js';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  FormGroup,
  FormLabel,
  IconButton,
  List,
  ListItem,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleRace } from '@tempora/contracts';
import {
  type CategoryDef,
  type CategoryIssue,
  type CategoryTemplate,
  categoriesFromTemplate,
  categoryTemplates,
  checkCategories,
  type Gender,
} from '@tempora/domain';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { replaceCategories } from '../api/races.ts';
import { EditorRow, RowField, useEditableRows } from './editable-rows.tsx';
import { announceSaved, fieldError, SaveError } from './form-state.tsx';

interface Row {
  id: string;
  name: string;
  gender: '' | Gender;
  min: string;
  max: string;
}

const toRow = (c: CategoryDef): Row => ({
  id: c.id,
  name: c.name,
  gender: c.gender ?? '',
  min: c.minAge === undefined ? '' : String(c.minAge),
  max: c.maxAge === undefined ? '' : String(c.maxAge),
});
const toDef = (r: Row): CategoryDef => ({
  id: r.id.trim(),
  name: r.name.trim(),
  ...(r.gender ? { gender: r.gender } : {}),
  ...(r.min.trim() ? { minAge: Number(r.min) } : {}),
  ...(r.max.trim() ? { maxAge: Number(r.max) } : {}),
});

/**
 * A race's categories: age basis (race day or birth year), generated from a template or typed by
 * hand, with overlaps and gaps reported as they are edited (the check the server also answers).
 */
export function CategoriesEditor({ race, editable }: { race: ConsoleRace; editable: boolean }) {
  const { t } = useTranslation('console');
  const client = useQueryClient();
  const [ageBasis, setAgeBasis] = useState(race.ageBasis);
  const { rows, replace, patch, insert, remove } = useEditableRows<Row>(() => race.categories.map(toRow));
  const [template, setTemplate] = useState<CategoryTemplate>('fiveYear');
  const [genders, setGenders] = useState<Gender[]>(['F', 'M']);
  const issues = useMemo(() => checkCategories(rows.map(toDef)), [rows]);
  const save = useMutation({
    mutationFn: () => replaceCategories(race.id, { ageBasis, categories: rows.map(toDef) }),
    onSuccess: () => {
      announceSaved();
      return client.invalidateQueries({ queryKey: ['console'] });
    },
  });
  const err = (k: number, field: string) => fieldError(save.error, `categories.${k}.${field}`);
  const describe = (i: CategoryIssue) =>
    i.kind === 'overlap'
      ? t('categories.overlap', {
          gender: t(`gender.${i.gender}`),
          from: i.fromAge,
          to: i.toAge,
          ids: i.categoryIds.join(', '),
        })
      : i.kind === 'gap'
        ? t('categories.gap', { gender: t(`gender.${i.gender}`), from: i.fromAge, to: i.toAge })
        : t(`categories.${i.kind}`, { id: i.categoryId });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('categories.title')}>
      <Stack spacing={2}>
        <SaveError error={save.error} />
        <Box>
          <FormLabel id="age-basis">{t('categories.ageBasis')}</FormLabel>
          <RadioGroup
            row
            aria-labelledby="age-basis"
            value={ageBasis}
            onChange={(e) => setAgeBasis(e.target.value as typeof ageBasis)}
          >
            <FormControlLabel
              value="raceDay"
              control={<Radio disabled={!editable} />}
              label={t('categories.raceDay')}
            />
            <FormControlLabel
              value="birthYear"
              control={<Radio disabled={!editable} />}
              label={t('categories.birthYear')}
            />
          </RadioGroup>
        </Box>
        {editable && (
          <Box
            component="fieldset"
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, m: 0, minWidth: 0 }}
          >
            <Typography component="legend" sx={{ px: 0.5 }}>
              {t('categories.fromTemplate')}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <TextField
                select
                label={t('categories.template')}
                value={template}
                onChange={(e) => setTemplate(e.target.value as CategoryTemplate)}
                sx={{ minWidth: 240 }}
              >
                {categoryTemplates.map((tpl) => (
                  <MenuItem key={tpl} value={tpl}>
                    {t(`categories.templates.${tpl}`)}
                  </MenuItem>
                ))}
              </TextField>
              <FormGroup row aria-label={t('categories.genders')}>
                {(['F', 'M', 'X'] as const).map((g) => (
                  <FormControlLabel
                    key={g}
                    control={
                      <Checkbox
                        checked={genders.includes(g)}
                        onChange={(e) =>
                          setGenders((gs) => (e.target.checked ? [...gs, g] : gs.filter((x) => x !== g)))
                        }
                      />
                    }
                    label={t(`gender.${g}`)}
                  />
                ))}
              </FormGroup>
              <Button
                variant="outlined"
                onClick={() => replace(categoriesFromTemplate(template, genders).map(toRow))}
                disabled={genders.length === 0}
              >
                {t('categories.generate')}
              </Button>
            </Stack>
          </Box>
        )}
        {issues.length > 0 ? (
          <Alert severity="warning" role="status">
            <Typography sx={{ fontWeight: 600 }}>
              {t('categories.issues', { count: issues.length })}
            </Typography>
            <List dense disablePadding>
              {issues.slice(0, 20).map((i) => (
                <ListItem key={JSON.stringify(i)} disableGutters sx={{ py: 0 }}>
                  {describe(i)}
                </ListItem>
              ))}
            </List>
          </Alert>
        ) : (
          rows.length > 0 && (
            <Alert severity="success" role="status">
              {t('categories.noIssues', { count: rows.length })}
            </Alert>
          )
        )}
        <Stack
          spacing={1}
          component="ol"
          sx={{ p: 0, m: 0, listStyle: 'none' }}
          aria-label={t('categories.list')}
        >
          {rows.map((r, k) => (
            <EditorRow
              key={r.uid}
              columns={{ xs: '1fr 1fr 1fr auto', sm: '110px 1fr 120px 90px 90px auto' }}
              areas={{ xs: '"id name name del" "gen min max ."', sm: '"id name gen min max del"' }}
              sx={{ pb: { xs: 1, sm: 0 }, borderBottom: { xs: 1, sm: 0 }, borderColor: 'divider' }}
            >
              <RowField
                area="id"
                label={t('categories.id')}
                value={r.id}
                onValue={(id) => patch(k, { id })}
                disabled={!editable}
                error={err(k, 'id')}
              />
              <RowField
                area="name"
                label={t('categories.name')}
                value={r.name}
                onValue={(name) => patch(k, { name })}
                disabled={!editable}
                error={err(k, 'name')}
              />
              <RowField
                area="gen"
                select
                label={t('categories.gender')}
                value={r.gender}
                onValue={(gender) => patch(k, { gender: gender as Row['gender'] })}
                disabled={!editable}
                error={err(k, 'gender')}
              >
                <MenuItem value="">{t('gender.any')}</MenuItem>
                {(['F', 'M', 'X'] as const).map((g) => (
                  <MenuItem key={g} value={g}>
                    {t(`gender.${g}`)}
                  </MenuItem>
                ))}
              </RowField>
              <RowField
                area="min"
                label={t('categories.minAge')}
                // Shrunk even when empty: the label fits the phone's narrow age fields (issue 43).
                slotProps={{ inputLabel: { shrink: true } }}
                value={r.min}
                onValue={(min) => patch(k, { min })}
                disabled={!editable}
                inputMode="numeric"
                error={err(k, 'minAge')}
              />
              <RowField
                area="max"
                label={t('categories.maxAge')}
                // Shrunk even when empty: the label fits the phone's narrow age fields (issue 43).
                slotProps={{ inputLabel: { shrink: true } }}
                value={r.max}
                onValue={(max) => patch(k, { max })}
                disabled={!editable}
                inputMode="numeric"
                error={err(k, 'maxAge')}
              />
              <IconButton
                aria-label={t('categories.remove', { name: r.name || r.id })}
                onClick={() => remove(k)}
                disabled={!editable}
                sx={{ gridArea: 'del' }}
              >
                <MdiIcon path={mdiDelete} />
              </IconButton>
            </EditorRow>
          ))}
        </Stack>
        {editable && (
          <Stack direction="row" spacing={1}>
            <Button
              startIcon={<MdiIcon path={mdiPlus} />}
              onClick={() => insert({ id: '', name: '', gender: '', min: '', max: '' })}
            >
              {t('categories.add')}
            </Button>
            <Button type="submit" variant="contained" disabled={save.isPending}>
              {t('categories.save')}
            </Button>
          </Stack>
        )}
      </Stack>
    </form>
  );
}
