import { Alert, Box, Button, type ButtonProps, Typography } from '@mui/material';
import { type DragEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { numberFormat } from '../lib/intl.ts';

/** A byte count as people read it: "512 B", "12.3 kB", "4.5 MB" (1024-based, in `lng`). */
export function formatFileSize(bytes: number, lng: string | undefined): string {
  const [unit, value] =
    bytes < 1024
      ? (['byte', bytes] as const)
      : bytes < 1024 * 1024
        ? (['kilobyte', bytes / 1024] as const)
        : (['megabyte', bytes / 1024 / 1024] as const);
  return numberFormat(lng, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

/**
 * Whether `file` matches an `accept` attribute's list (HTML § the input element's accept):
 * `.ext`, `type/*` or an exact MIME type. The browser's chooser filters picked files itself;
 * dropped files are checked here.
 */
export function acceptsFile(accept: string | undefined, file: File): boolean {
  const tokens = (accept ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (!tokens.length) return true;
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return tokens.some((token) => {
    if (token.startsWith('.')) return name.endsWith(token);
    if (token.endsWith('/*')) return type.startsWith(token.slice(0, -1));
    return type === token;
  });
}

/** The button's look; the picker owns its `onClick`, `disabled` and content. */
type PickerButtonProps = Pick<ButtonProps, 'variant' | 'size' | 'color' | 'startIcon' | 'sx'>;

interface FileDropBaseProps {
  /** The button's text. */
  label: string;
  /** The file input's accessible name (browser tests find the input by it); defaults to `label`. */
  inputLabel?: string;
  /** The input's `accept`: extensions and MIME types, comma-separated. */
  accept?: string;
  /** Larger files are refused with a message in the user's language. */
  maxBytes?: number;
  disabled?: boolean;
  /** The chosen file to show (name and size); the parent owns it, so clearing it clears the line. */
  file?: File | null;
  /** `data-testid` of the input. */
  inputTestId?: string;
  buttonProps?: PickerButtonProps;
  /** Layout of the drop area (a flex row that wraps). */
  sx?: ButtonProps['sx'];
}

/** One file (`onFile`), or several at once with `multiple` (`onFiles`). */
export type FileDropProps = FileDropBaseProps &
  (
    | { multiple?: false; onFile(file: File): void; onFiles?: never }
    | { multiple: true; onFiles(files: File[]): void; onFile?: never }
  );

/**
 * The one file picker of the web (issue "one way for each thing"): a button that opens the
 * browser's chooser — the keyboard's focus target — and a drop area around it that lights up
 * while a file is dragged over. The hidden input stays in the DOM with its accessible name, so
 * assistive technology and browser tests (`setInputFiles`) reach it; `disabled` turns off the
 * button and the drop, not the input, as the pickers it replaced did.
 */
export function FileDrop(props: FileDropProps) {
  const { label, inputLabel, accept, maxBytes, disabled, file, inputTestId, buttonProps, sx } = props;
  const { t, i18n } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const take = (files: File[], dropped: boolean) => {
    const refused: string[] = [];
    const kept = files.filter((f) => {
      if (dropped && !acceptsFile(accept, f)) refused.push(t('fileDrop.notAccepted', { name: f.name }));
      else if (maxBytes !== undefined && f.size > maxBytes)
        refused.push(
          t('fileDrop.tooBig', {
            name: f.name,
            size: formatFileSize(f.size, i18n.language),
            max: formatFileSize(maxBytes, i18n.language),
          }),
        );
      else return true;
      return false;
    });
    setRefusal(refused.length ? refused.join('\n') : null);
    if (props.multiple) {
      if (kept.length) props.onFiles(kept);
    } else if (kept[0]) props.onFile(kept[0]);
  };

  const dragging = (e: DragEvent) => {
    if (disabled || !e.dataTransfer.types.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const leave = (e: DragEvent) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!disabled) take([...e.dataTransfer.files], true);
  };

  return (
    <Box
      data-dragover={over || undefined}
      onDragEnter={dragging}
      onDragOver={dragging}
      onDragLeave={leave}
      onDrop={drop}
      sx={[
        {
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          columnGap: 1.5,
          rowGap: 1,
          borderRadius: 1,
          // An outline, not a border: the drop area takes no room until a file is over it.
          outline: '2px dashed transparent',
          outlineOffset: 4,
          transition: 'outline-color 120ms, background-color 120ms',
        },
        over && { outlineColor: 'primary.main', bgcolor: 'action.hover' },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <Button variant="outlined" {...buttonProps} disabled={disabled} onClick={() => input.current?.click()}>
        {label}
      </Button>
      <input
        ref={input}
        hidden
        type="file"
        accept={accept}
        multiple={props.multiple}
        aria-label={inputLabel ?? label}
        data-testid={inputTestId}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          // Cleared so that choosing the same file again is a new choice.
          e.target.value = '';
          if (files.length) take(files, false);
        }}
      />
      {file && (
        <Typography sx={{ overflowWrap: 'anywhere' }} data-testid="file-drop-chosen">
          {file.name}{' '}
          <Box component="span" sx={{ color: 'text.secondary' }}>
            ({formatFileSize(file.size, i18n.language)})
          </Box>
        </Typography>
      )}
      {refusal && (
        <Alert severity="error" role="alert" sx={{ flexBasis: '100%', whiteSpace: 'pre-line' }}>
          {refusal}
        </Alert>
      )}
    </Box>
  );
}
