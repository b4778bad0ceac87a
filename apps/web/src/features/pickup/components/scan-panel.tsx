import { Alert, Box, Button, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { entryCodeIn, startScanner } from '../scanner.ts';
import { BUTTON, FIELD, ROW } from './layout.ts';

/**
 * The camera and the typed entry code (issue 39): a scanned or typed code is handed to `onCode`;
 * `mode` says what the camera reads for (an entry's QR, or a chip's or bib's printed code).
 */
export function ScanPanel({
  onCode,
  label,
  entry = true,
}: {
  onCode: (text: string) => void;
  label: string;
  /** Whether texts are entry codes (checked and typed here) or anything (a chip). */
  entry?: boolean;
}) {
  const { t } = useTranslation('pickup');
  const video = useRef<HTMLVideoElement>(null);
  const [on, setOn] = useState(false);
  const [denied, setDenied] = useState(false);
  const [typed, setTyped] = useState('');
  const handler = useRef(onCode);
  handler.current = onCode;

  useEffect(() => {
    if (!on || !video.current) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    startScanner(
      video.current,
      (text) => {
        // A chip's scan skips entry QR codes (a runner's QR in view is not their chip).
        const code = entry ? entryCodeIn(text) : entryCodeIn(text) ? null : text.trim();
        if (code) handler.current(code);
      },
      entry ? 'entry' : 'chip',
    )
      .then((s) => {
        if (cancelled) s();
        else stop = s;
      })
      .catch(() => {
        setDenied(true);
        setOn(false);
      });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [on, entry]);

  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Button variant={on ? 'outlined' : 'contained'} onClick={() => setOn(!on)}>
        {on ? t('scan.stop') : label}
      </Button>
      {on && (
        <Box
          component="video"
          ref={video}
          muted
          aria-label={t('scan.camera')}
          sx={{ width: '100%', maxHeight: 260, bgcolor: 'black', borderRadius: 1 }}
        />
      )}
      {denied && (
        <Alert severity="warning" role="status">
          {t('scan.denied')}
        </Alert>
      )}
      {entry && (
        <Box
          component="form"
          sx={ROW}
          onSubmit={(e) => {
            e.preventDefault();
            const code = entryCodeIn(typed);
            if (code) onCode(code);
          }}
        >
          <TextField
            size="small"
            label={t('scan.code')}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            sx={FIELD}
            slotProps={{ htmlInput: { autoCapitalize: 'characters', spellCheck: false } }}
          />
          <Button type="submit" variant="outlined" sx={BUTTON}>
            {t('scan.open')}
          </Button>
        </Box>
      )}
    </Box>
  );
}
