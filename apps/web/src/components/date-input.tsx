import { TextField, type TextFieldProps } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Dates typed and shown in the page's language (issue 38): Chromium draws `<input type="date">`
 * and `datetime-local` in the browser's locale (mm/dd/yyyy, 12-hour clock for en-US) whatever the
 * page's language. These fields are text inputs with the language's pattern instead — day first
 * in both product languages (`jj/mm/aaaa` in French, `dd/mm/yyyy` in English as en-GB writes it;
 * a 24-hour `hh:mm` after it for a date and time), the numeric keypad on a phone, the separators
 * put in as one types, and the date checked (31/02 is not a date). Their values stay what the
 * native inputs gave: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:mm` with `time`.
 */

/** The pattern shown to the runner, in the page's language. */
export function datePattern(lng: string, time = false): string {
  const date = lng.startsWith('fr') ? 'jj/mm/aaaa' : 'dd/mm/yyyy';
  return time ? `${date} hh:mm` : date;
}

/** A value (`YYYY-MM-DD` or `YYYY-MM-DDTHH:mm`) as typed: `dd/mm/yyyy` (and ` hh:mm`). */
export function toTyped(value: string | null | undefined, time = false): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/.exec(value ?? '');
  if (!m) return '';
  const date = `${m[3]}/${m[2]}/${m[1]}`;
  return time ? `${date} ${m[4] ?? '00'}:${m[5] ?? '00'}` : date;
}

/** Digits typed, with the separators put in: `0105` → `01/05/`, `010520270930` → `01/05/2027 09:30`. */
export function maskTyped(text: string, time = false): string {
  const digits = text.replace(/\D/g, '').slice(0, time ? 12 : 8);
  let out = '';
  for (const [k, d] of [...digits].entries()) {
    if (k === 2 || k === 4) out += '/';
    if (k === 8) out += ' ';
    if (k === 10) out += ':';
    out += d;
  }
  // A separator typed right after a full part is kept (typing "01/" shows "01/").
  if (/[/\s:.-]$/.test(text) && [2, 4].includes(digits.length)) out += '/';
  return out;
}

/**
 * What was typed as a value: `YYYY-MM-DD` (`…THH:mm` with `time`), '' for nothing typed, or
 * null for a text that is not a whole, real date (and time).
 */
export function parseTyped(text: string, time = false): string | null | '' {
  const t = text.trim();
  if (!t) return '';
  const m = time
    ? /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})[\sT]+(\d{1,2})[:h.](\d{2})$/.exec(t)
    : /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  if (!m) return null;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1900 || at.getUTCFullYear() !== y || at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d)
    return null;
  const day = `${m[3]}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  if (!time) return day;
  const [h, min] = [Number(m[4]), Number(m[5])];
  if (h > 23 || min > 59) return null;
  return `${day}T${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
}

/**
 * A date (or date and time) field in the page's language. `onChange` gets the value
 * (`YYYY-MM-DD`, `YYYY-MM-DDTHH:mm`) or null when the field is emptied or not yet a date; a text
 * that is not a date is said under the field once it loses focus (the server's own error, given
 * in `helperText`, comes first).
 */
export function DateInput({
  value,
  onChange,
  time = false,
  helperText,
  error,
  label,
  ...rest
}: {
  value: string | null | undefined;
  onChange: (value: string | null) => void;
  time?: boolean;
} & Omit<TextFieldProps, 'value' | 'onChange' | 'type'>) {
  const { t, i18n } = useTranslation('common');
  const [typed, setTyped] = useState(() => toTyped(value, time));
  const [left, setLeft] = useState(false);
  // A value set from outside (the form reset, settings pasted as JSON) replaces what is typed.
  useEffect(() => {
    setTyped((now) => {
      const parsed = parseTyped(now, time);
      return parsed === (value ?? '') || (parsed === null && !value) ? now : toTyped(value, time);
    });
  }, [value, time]);
  const pattern = datePattern(i18n.language, time);
  const bad = left && parseTyped(typed, time) === null;
  return (
    <TextField
      {...rest}
      label={label}
      value={typed}
      onChange={(e) => {
        const next = maskTyped(e.target.value, time);
        setTyped(next);
        setLeft(false);
        const parsed = parseTyped(next, time);
        onChange(parsed || null);
      }}
      onBlur={() => setLeft(true)}
      error={Boolean(error) || bad}
      helperText={helperText ?? (bad ? t('dateInvalid', { pattern }) : undefined)}
      placeholder={pattern}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: {
          inputMode: 'numeric',
          autoComplete: 'off',
          'aria-description': pattern,
          maxLength: time ? 16 : 10,
        },
      }}
    />
  );
}
