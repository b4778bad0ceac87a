import { MenuItem, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';

/** One field of a small organiser form. */
export interface FieldSpec {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'url' | 'datetime-local' | 'select';
  options?: { value: string; label: string }[];
  required?: boolean;
  helperText?: string;
}

/**
 * A dialog editing one record (a contact, a stream): the fields as given, saved by `save`; the
 * server's field errors (problem+json `errors`) are shown beside their fields, translated.
 */
export function RecordEditor({
  title,
  fields,
  initial,
  save,
  onClose,
  onSaved,
}: {
  title: string;
  fields: FieldSpec[];
  initial: Record<string, string>;
  save: (values: Record<string, string>) => Promise<unknown>;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('content');
  const [values, setValues] = useState(initial);
  const mutation = useMutation({ mutationFn: () => save(values), onSuccess: onSaved });
  const fieldErrors = mutation.error instanceof ApiError ? mutation.error.fieldErrors : {};
  const missing = (f: FieldSpec) => f.required && mutation.isError && !values[f.name]?.trim();
  return (
    <FormDialog
      title={title}
      onClose={onClose}
      onSubmit={() => mutation.mutate()}
      busy={mutation.isPending}
      error={mutation.isError && t('form.failed')}
      submitLabel={t('form.save')}
      cancelLabel={t('form.cancel')}
    >
      {fields.map((f) => {
        const invalid = Boolean(fieldErrors[f.name]) || missing(f);
        return (
          <TextField
            key={f.name}
            name={f.name}
            label={f.label}
            type={f.type === 'select' ? undefined : (f.type ?? 'text')}
            select={f.type === 'select'}
            required={f.required}
            value={values[f.name] ?? ''}
            onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
            error={invalid}
            helperText={invalid ? t('form.invalid') : f.helperText}
            slotProps={f.type === 'datetime-local' ? { inputLabel: { shrink: true } } : undefined}
            fullWidth
          >
            {f.options?.map((o) => (
              <MenuItem key={o.value} value={o.value}>
                {o.label}
              </MenuItem>
            ))}
          </TextField>
        );
      })}
    </FormDialog>
  );
}

// The datetime-local helpers live beside, so pages use them without loading this editor.
export { fromLocalInput, toLocalInput } from './local-datetime.ts';
