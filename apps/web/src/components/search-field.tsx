import { mdiMagnify } from '@mdi/js';
import { Box, type SxProps, type Theme } from '@mui/material';
import { useId } from 'react';
import { MdiIcon } from './mdi-icon.tsx';

/** What a search field needs. */
export interface SearchFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  autoFocus?: boolean;
  sx?: SxProps<Theme>;
  inputProps?: Record<string, unknown>;
}

/**
 * A labelled search box. A native input in MUI's outlined look: MUI's TextField brings Select,
 * Menu, Popover and Modal into every page that searches (≈ 27 KB gzip; issue 19 budget).
 */
export function SearchField({
  label,
  value,
  onChange,
  placeholder,
  autoFocus,
  sx,
  inputProps,
}: SearchFieldProps) {
  const id = useId();
  return (
    <Box
      sx={[
        {
          position: 'relative',
          display: 'flex',
          alignItems: 'center',
          border: 1,
          borderColor: 'rgba(0, 0, 0, 0.42)',
          borderRadius: 1,
          bgcolor: 'background.paper',
          height: 40,
          '&:hover': { borderColor: 'text.primary' },
          '&:focus-within': {
            borderColor: 'primary.dark',
            boxShadow: (t) => `inset 0 0 0 1px ${t.palette.primary.dark}`,
          },
          '& label': {
            position: 'absolute',
            top: -9,
            left: 8,
            px: 0.5,
            fontSize: 12,
            lineHeight: '16px',
            color: 'text.secondary',
            bgcolor: 'background.paper',
          },
          '& input': {
            flex: 1,
            minWidth: 0,
            height: '100%',
            border: 0,
            outline: 0,
            bgcolor: 'transparent',
            font: 'inherit',
            fontSize: 16,
            color: 'text.primary',
            pr: 1,
          },
          '& input::placeholder': { color: '#6b7378', opacity: 1 },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <label htmlFor={id}>{label}</label>
      <MdiIcon path={mdiMagnify} fontSize="small" sx={{ mx: 1, color: 'text.secondary' }} aria-hidden />
      <input
        id={id}
        type="search"
        value={value}
        placeholder={placeholder}
        // biome-ignore lint/a11y/noAutofocus: only where the page is a search (the tracking search).
        autoFocus={autoFocus}
        onChange={(e) => onChange(e.target.value)}
        {...inputProps}
      />
    </Box>
  );
}
