import { FormControlLabel, MenuItem, Stack, Switch, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CmsNode, CmsPage } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { ApiError, fieldError } from '../../../lib/api-client.ts';
import { cmsApi } from '../api/cms.ts';

const flatten = (node: CmsNode): CmsNode[] => node.Childs.flatMap((c) => [c, ...flatten(c)]);

/**
 * Creates (no `page`) or edits a CMS page in both languages. The body is HTML; the server
 * sanitises it on output, so what the preview shows is what spectators get.
 */
export function CmsPageEditor({
  eventId,
  db,
  tree,
  page,
  onClose,
  onSaved,
}: {
  eventId: string;
  db: string;
  tree: CmsNode;
  page?: CmsPage;
  onClose: () => void;
  onSaved: (key: string) => void;
}) {
  const { t } = useTranslation('content');
  const client = useQueryClient();
  const [form, setForm] = useState({
    key: page?.key ?? '',
    parentKey: page?.parentKey ?? '',
    titleEn: page?.title.en ?? '',
    titleFr: page?.title.fr ?? '',
    bodyEn: page?.body.en ?? '',
    bodyFr: page?.body.fr ?? '',
    published: page?.published ?? false,
  });
  const save = useMutation({
    mutationFn: async () => {
      const common = {
        parentKey: form.parentKey || null,
        title: { en: form.titleEn, fr: form.titleFr },
        body: { en: form.bodyEn, fr: form.bodyFr },
        published: form.published,
      };
      if (page) return cmsApi.update(eventId, db, page.key, common);
      return cmsApi.create(eventId, { key: form.key, db, ...common });
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: ['content', 'cms', eventId] });
      onSaved(saved.key);
    },
  });
  const err = (field: string) => fieldError(save.error, field);
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [name]: e.target.value }));
  const parents = flatten(tree).filter((n) => n.Id !== page?.key);
  return (
    <FormDialog
      title={page ? t('cms.editPage') : t('cms.newPage')}
      onClose={onClose}
      onSubmit={() => save.mutate()}
      busy={save.isPending}
      error={
        save.isError &&
        (save.error instanceof ApiError && save.error.status === 409 ? t('cms.keyTaken') : t('form.failed'))
      }
      submitLabel={t('form.save')}
      cancelLabel={t('form.cancel')}
      maxWidth="md"
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label={t('cms.key')}
          value={form.key}
          onChange={set('key')}
          disabled={Boolean(page)}
          required
          error={!!err('key')}
          helperText={err('key') ?? t('cms.keyHelp')}
          fullWidth
        />
        <TextField
          select
          label={t('cms.parent')}
          value={form.parentKey}
          onChange={set('parentKey')}
          fullWidth
        >
          <MenuItem value="">{t('cms.topLevel')}</MenuItem>
          {parents.map((n) => (
            <MenuItem key={n.Id} value={n.Id}>
              {n.DisplayName}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <TextField
        label={t('cms.titleFr')}
        value={form.titleFr}
        onChange={set('titleFr')}
        required
        error={!!err('title.fr')}
      />
      <TextField
        label={t('cms.titleEn')}
        value={form.titleEn}
        onChange={set('titleEn')}
        required
        error={!!err('title.en')}
      />
      <TextField
        label={t('cms.bodyFr')}
        value={form.bodyFr}
        onChange={set('bodyFr')}
        multiline
        minRows={5}
        helperText={t('cms.bodyHelp')}
      />
      <TextField label={t('cms.bodyEn')} value={form.bodyEn} onChange={set('bodyEn')} multiline minRows={5} />
      <FormControlLabel
        control={
          <Switch
            checked={form.published}
            onChange={(e) => setForm((f) => ({ ...f, published: e.target.checked }))}
          />
        }
        label={t('cms.published')}
      />
    </FormDialog>
  );
}
