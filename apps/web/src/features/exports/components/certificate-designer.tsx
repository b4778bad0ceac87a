import {
  Alert,
  Box,
  Button,
  Divider,
  List,
  ListItemButton,
  ListItemText,
  MenuItem,
  Paper,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import type { CertificateField, CertificateTemplate } from '@tempora/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileDrop } from '../../../components/file-drop.tsx';
import { saveBlob } from '../../../lib/download.ts';
import {
  previewCertificate,
  useBackgroundImage,
  useCertificateBackground,
  useCertificateTemplate,
  useSaveCertificateTemplate,
} from '../api/certificate.ts';
import { CertificateCanvas, sampleText } from './certificate-canvas.tsx';
import { FieldEditor } from './field-editor.tsx';

const NEW_FIELD: CertificateField = {
  kind: 'text',
  label: { en: 'Text', fr: 'Texte' },
  x: 20,
  y: 190,
  width: 120,
  size: 12,
  font: 'sans',
  align: 'left',
  color: '#000000',
};

/**
 * The finisher certificate designer (issue 16): orientation, background image, fields placed in
 * millimetres with labels in both languages, a live preview in either language, and a PDF
 * preview with the event's first finisher.
 */
export function CertificateDesigner({ eventId }: { eventId: string }) {
  const { t, i18n } = useTranslation('exports');
  const info = useCertificateTemplate(eventId);
  const save = useSaveCertificateTemplate(eventId);
  const background = useCertificateBackground(eventId);
  const image = useBackgroundImage(eventId, !!info.data?.hasBackground);
  const [draft, setDraft] = useState<CertificateTemplate | null>(null);
  const [selected, setSelected] = useState(0);
  const [lng, setLng] = useState<'en' | 'fr'>(i18n.language === 'en' ? 'en' : 'fr');
  const [previewError, setPreviewError] = useState(false);
  useEffect(() => {
    if (info.data && !draft) setDraft(info.data.template);
  }, [info.data, draft]);
  if (!draft) return null;
  const field = draft.fields[selected];
  const update = (fields: CertificateField[]) => setDraft({ ...draft, fields });
  async function handlePreview() {
    setPreviewError(false);
    try {
      const { blob, fileName } = await previewCertificate(eventId, lng);
      saveBlob(blob, fileName ?? 'certificate.pdf');
    } catch {
      setPreviewError(true);
    }
  }
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
      <Box sx={{ flex: '1 1 60%', width: '100%' }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={lng}
          onChange={(_e, v) => v && setLng(v)}
          aria-label={t('designer.previewLanguage')}
          sx={{ mb: 1 }}
        >
          <ToggleButton value="fr">Français</ToggleButton>
          <ToggleButton value="en">English</ToggleButton>
        </ToggleButtonGroup>
        <CertificateCanvas
          template={draft}
          background={info.data?.hasBackground ? (image.data ?? null) : null}
          lng={lng}
          selected={selected}
          onSelect={setSelected}
        />
      </Box>
      <Paper variant="outlined" sx={{ flex: '1 1 40%', p: 2, width: '100%' }}>
        <Stack spacing={2}>
          <TextField
            select
            size="small"
            label={t('designer.orientation')}
            value={draft.orientation}
            onChange={(e) =>
              setDraft({ ...draft, orientation: e.target.value as CertificateTemplate['orientation'] })
            }
          >
            <MenuItem value="landscape">{t('designer.landscape')}</MenuItem>
            <MenuItem value="portrait">{t('designer.portrait')}</MenuItem>
          </TextField>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
            <FileDrop
              label={t('designer.background')}
              accept="image/png,image/jpeg"
              inputTestId="background-input"
              buttonProps={{ size: 'small' }}
              onFile={(file) => background.mutate(file)}
            />
            {info.data?.hasBackground && (
              <Button size="small" color="error" onClick={() => background.mutate(null)}>
                {t('designer.removeBackground')}
              </Button>
            )}
            <Typography variant="caption" color="text.secondary">
              {t('designer.backgroundHelp')}
            </Typography>
          </Stack>
          {background.isError && <Alert severity="error">{t('designer.backgroundFailed')}</Alert>}
          <Divider />
          <Typography variant="subtitle2" component="h2">
            {t('designer.fields')}
          </Typography>
          <List
            dense
            aria-label={t('designer.fields')}
            sx={{ maxHeight: 220, overflow: 'auto', border: 1, borderColor: 'divider' }}
          >
            {draft.fields.map((f, k) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a field's place in the template is its identity (no id; edited by index)
              <ListItemButton key={k} selected={k === selected} onClick={() => setSelected(k)}>
                <ListItemText
                  primary={t(`designer.kinds.${f.kind}`)}
                  secondary={sampleText(f, lng).split('\n')[0]}
                />
              </ListItemButton>
            ))}
          </List>
          <Stack direction="row" spacing={1}>
            <Button
              size="small"
              onClick={() => {
                update([...draft.fields, NEW_FIELD]);
                setSelected(draft.fields.length);
              }}
              disabled={draft.fields.length >= 40}
            >
              {t('designer.addField')}
            </Button>
            <Button
              size="small"
              color="error"
              disabled={!field}
              onClick={() => {
                update(draft.fields.filter((_, k) => k !== selected));
                setSelected(Math.max(0, selected - 1));
              }}
            >
              {t('designer.removeField')}
            </Button>
          </Stack>
          {field && (
            <FieldEditor
              field={field}
              onChange={(f) => update(draft.fields.map((old, k) => (k === selected ? f : old)))}
            />
          )}
          <Divider />
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button variant="contained" onClick={() => save.mutate(draft)} disabled={save.isPending}>
              {t('designer.save')}
            </Button>
            <Button variant="outlined" onClick={() => void handlePreview()}>
              {t('designer.previewPdf')}
            </Button>
          </Stack>
          {save.isSuccess && (
            <Alert severity="success" role="status">
              {t('designer.saved')}
            </Alert>
          )}
          {save.isError && <Alert severity="error">{t('designer.saveFailed')}</Alert>}
          {previewError && <Alert severity="warning">{t('designer.previewFailed')}</Alert>}
        </Stack>
      </Paper>
    </Stack>
  );
}
