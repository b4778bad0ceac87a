import { Box, List, ListItemButton, ListItemText, TextField, Typography } from '@mui/material';
import { foldText } from '@tempora/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickupRunner } from '../api/pickup.ts';

const SHOWN = 30;

/**
 * Search by name or bib in the list on the phone (works offline): an exact bib first, then names
 * folded the one way the site folds them (accents, case).
 */
export function RunnerSearch({ runners, onOpen }: { runners: PickupRunner[]; onOpen: (id: string) => void }) {
  const { t } = useTranslation('pickup');
  const [q, setQ] = useState('');
  const found = useMemo(() => {
    const text = q.trim();
    if (!text) return [];
    const folded = foldText(text);
    const bib = runners.filter((r) => r.bib === text);
    const named = runners.filter(
      (r) =>
        r.bib !== text &&
        foldText(`${r.firstName} ${r.lastName} ${r.lastName} ${r.firstName}`).includes(folded),
    );
    return [...bib, ...named];
  }, [q, runners]);
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <TextField
        size="small"
        type="search"
        label={t('search.label')}
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      {q.trim() && !found.length && <Typography>{t('search.none')}</Typography>}
      <List dense aria-label={t('search.label')}>
        {found.slice(0, SHOWN).map((r) => (
          <ListItemButton key={r.id} onClick={() => onOpen(r.id)}>
            <ListItemText
              primary={`${r.bib ? `${r.bib} · ` : ''}${r.firstName} ${r.lastName}`}
              secondary={`${r.raceName}${r.handedOut ? ' · ✓' : ''}`}
            />
          </ListItemButton>
        ))}
      </List>
      {found.length > SHOWN && <Typography variant="body2">{t('search.more')}</Typography>}
    </Box>
  );
}
