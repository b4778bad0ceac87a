import { Alert, AlertTitle, Box } from '@mui/material';
import { correctionsTitle, correctionText, type ResultCorrection } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';

/**
 * "Corrected on <date, time, zone>: <what changed>" under official results (issue 43): on a race's
 * report pages and a runner's card, newest first (the last five), in the event's zone and the
 * page language's format. Nothing when the results were never corrected.
 */
export function CorrectionsNote({
  corrections,
  timeZone,
}: {
  corrections: readonly ResultCorrection[] | undefined;
  timeZone: string | null | undefined;
}) {
  const { i18n } = useTranslation();
  if (!corrections?.length) return null;
  const lng = i18n.language.startsWith('fr') ? 'fr' : 'en';
  return (
    <Alert severity="info" data-testid="corrections" sx={{ mt: 1, '& .MuiAlert-message': { minWidth: 0 } }}>
      <AlertTitle sx={{ fontSize: 14 }}>{correctionsTitle(lng)}</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2, fontSize: 14, overflowWrap: 'anywhere' }}>
        {corrections.slice(0, 5).map((c) => (
          <li key={c.id}>{correctionText(c, lng, timeZone)}</li>
        ))}
      </Box>
    </Alert>
  );
}
