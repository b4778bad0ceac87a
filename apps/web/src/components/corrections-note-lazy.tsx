import type { ResultCorrection } from '@tempora/contracts';
import { lazy, Suspense } from 'react';

const Note = lazy(() => import('./corrections-note.tsx').then((m) => ({ default: m.CorrectionsNote })));

/**
 * The corrections note for spectators' first screens (the tracking card, a race's links): its code
 * (the alert, the corrections' wording) loads only when a race was corrected, which most never are
 * — the card's and the report page's first JavaScript stay within their budget.
 */
export function LazyCorrectionsNote(props: {
  corrections: readonly ResultCorrection[] | undefined;
  timeZone: string | null | undefined;
}) {
  if (!props.corrections?.length) return null;
  return (
    <Suspense fallback={null}>
      <Note {...props} />
    </Suspense>
  );
}
