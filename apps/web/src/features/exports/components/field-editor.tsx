import { MenuItem, Stack, TextField } from '@mui/material';
import { type CertificateField, certificateFieldKinds, certificateFonts } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';

/** The selected field's settings: what it shows, its labels in both languages, position, font. */
export function FieldEditor({
  field,
  onChange,
}: {
  field: CertificateField;
  onChange(f: CertificateField): void;
}) {
  const { t } = useTranslation('exports');
  const set = <K extends keyof CertificateField>(key: K, value: CertificateField[K]) =>
    onChange({ ...field, [key]: value });
  const num = (key: 'x' | 'y' | 'width' | 'size', label: string, min: number, max: number) => (
    <TextField
      size="small"
      type="number"
      label={label}
      value={field[key]}
      slotProps={{ htmlInput: { min, max, step: key === 'size' ? 1 : 0.5 } }}
      onChange={(e) => {
        const v = Number(e.target.value);
        if (Number.isFinite(v)) set(key, Math.min(max, Math.max(min, v)));
      }}
      sx={{ flex: '1 1 100px', minWidth: 100 }}
    />
  );
  return (
    <Stack spacing={1.5} data-testid="field-editor">
      <TextField
        select
        size="small"
        label={t('designer.kind')}
        value={field.kind}
        onChange={(e) => set('kind', e.target.value as CertificateField['kind'])}
      >
        {certificateFieldKinds.map((k) => (
          <MenuItem key={k} value={k}>
            {t(`designer.kinds.${k}`)}
          </MenuItem>
        ))}
      </TextField>
      {field.kind !== 'qr' && (
        <Stack direction="row" spacing={1}>
          <TextField
            size="small"
            label={t(field.kind === 'text' ? 'designer.textEn' : 'designer.labelEn')}
            value={field.label.en}
            onChange={(e) => set('label', { ...field.label, en: e.target.value })}
            slotProps={{ htmlInput: { maxLength: 200 } }}
            fullWidth
          />
          <TextField
            size="small"
            label={t(field.kind === 'text' ? 'designer.textFr' : 'designer.labelFr')}
            value={field.label.fr}
            onChange={(e) => set('label', { ...field.label, fr: e.target.value })}
            slotProps={{ htmlInput: { maxLength: 200 } }}
            fullWidth
          />
        </Stack>
      )}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {num('x', t('designer.x'), 0, 297)}
        {num('y', t('designer.y'), 0, 297)}
        {num('width', t('designer.width'), 5, 297)}
        {field.kind !== 'qr' && num('size', t('designer.size'), 4, 120)}
      </Stack>
      {field.kind !== 'qr' && (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <TextField
            select
            size="small"
            label={t('designer.font')}
            value={field.font}
            onChange={(e) => set('font', e.target.value as CertificateField['font'])}
            sx={{ minWidth: 140 }}
          >
            {certificateFonts.map((f) => (
              <MenuItem key={f} value={f}>
                {t(`designer.fonts.${f}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('designer.align')}
            value={field.align}
            onChange={(e) => set('align', e.target.value as CertificateField['align'])}
            sx={{ minWidth: 120 }}
          >
            {(['left', 'center', 'right'] as const).map((a) => (
              <MenuItem key={a} value={a}>
                {t(`designer.aligns.${a}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            type="color"
            label={t('designer.color')}
            value={field.color}
            onChange={(e) => set('color', e.target.value)}
            sx={{ width: 96 }}
          />
        </Stack>
      )}
    </Stack>
  );
}
