import { Box } from '@mui/material';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** What a jump looks for: a rank (the row's place) or a bib (its key). */
export type JumpKind = 'rank' | 'bib';

/**
 * The index of the row of rank or bib `value` in `rows`, or -1 (issue 27: big tables). A rank is
 * looked for about where it should be (rank N near row N; ties put a few rows apart), a bib is
 * the row's key.
 */
export function findRow(
  rows: readonly unknown[][],
  keyField: number,
  rankField: number,
  kind: JumpKind,
  value: string,
): number {
  const wanted = value.trim();
  if (!wanted) return -1;
  if (kind === 'bib') return rows.findIndex((row) => String(row[keyField]) === wanted);
  const rank = Number(wanted);
  if (!Number.isInteger(rank) || rank < 1) return -1;
  const guess = Math.min(rows.length - 1, rank - 1);
  if (rankField < 0) return rank <= rows.length ? guess : -1;
  const matches = (i: number) => String(rows[i]?.[rankField] ?? '').trim() === String(rank);
  for (let d = 0; d <= 200; d++) {
    if (matches(guess - d)) return guess - d;
    if (matches(guess + d)) return guess + d;
  }
  return -1;
}

/** What the jump control needs. */
export interface JumpToRowProps {
  rows: readonly unknown[][];
  keyField: number;
  rankField: number;
  /**
   * The rest of the table is still coming (progressive loading): a rank or bib not among the rows
   * yet is looked for again as they arrive, instead of being called missing.
   */
  loading?: boolean;
  /** Told the index of the row found. */
  onJump(index: number): void;
}

const field = {
  height: 40,
  border: '1px solid rgba(0,0,0,.42)',
  borderRadius: '8px',
  background: '#fff',
  font: 'inherit',
  fontSize: 14,
  px: 1,
} as const;

/**
 * Jump to a rank or a bib (issue 27: a 26,000-row table): a kind, a number and a button, native
 * elements (a few hundred bytes: the report page is at its JavaScript budget). What was not found
 * is said in a live region.
 */
export function JumpToRow({ rows, keyField, rankField, loading = false, onJump }: JumpToRowProps) {
  const { t } = useTranslation('results');
  const id = useId();
  const [kind, setKind] = useState<JumpKind>('rank');
  const [value, setValue] = useState('');
  const [missing, setMissing] = useState('');
  // A jump asked for while the rest of the table was loading: tried again as rows arrive.
  const [waiting, setWaiting] = useState<{ kind: JumpKind; value: string } | null>(null);
  const attempt = (wanted: { kind: JumpKind; value: string }) => {
    const index = findRow(rows, keyField, rankField, wanted.kind, wanted.value);
    if (index >= 0) {
      setWaiting(null);
      setMissing('');
      onJump(index);
    } else if (loading) {
      setWaiting(wanted);
      setMissing(t('jumpWaiting'));
    } else {
      setWaiting(null);
      const what = t(wanted.kind === 'rank' ? 'jumpRank' : 'jumpBib');
      setMissing(t('jumpNotFound', { what, value: wanted.value }));
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: tried again only when rows arrive or loading ends
  useEffect(() => {
    if (waiting) attempt(waiting);
  }, [rows, loading]);
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    attempt({ kind, value });
  };
  return (
    <Box
      component="form"
      role="search"
      aria-label={t('jumpForm')}
      onSubmit={handleSubmit}
      sx={{ display: 'flex', gap: 0.5, alignItems: 'center', fontSize: 14 }}
    >
      <label htmlFor={`${id}-k`}>{t('jumpLabel')}</label>
      <Box
        component="select"
        id={`${id}-k`}
        value={kind}
        onChange={(e) => setKind((e.target as HTMLSelectElement).value as JumpKind)}
        data-testid="jump-kind"
        sx={field}
      >
        <option value="rank">{t('jumpRank')}</option>
        <option value="bib">{t('jumpBib')}</option>
      </Box>
      <Box
        component="input"
        inputMode="numeric"
        aria-label={t('jumpValue')}
        value={value}
        onChange={(e) => setValue((e.target as HTMLInputElement).value)}
        sx={{ ...field, width: 84 }}
        data-testid="jump-value"
      />
      <Box component="button" type="submit" sx={{ ...field, cursor: 'pointer', fontWeight: 600 }}>
        {t('jumpGo')}
      </Box>
      <Box component="span" role="status" sx={{ color: waiting ? '#5f6368' : '#b3261e', fontSize: 13 }}>
        {missing}
      </Box>
    </Box>
  );
}
