import { mdiAccountMultipleCheck, mdiAccountMultiplePlus } from '@mdi/js';
import { Button } from '@mui/material';
import type { AthleteCard } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../components/mdi-icon.tsx';
import { useFavorites } from '../../lib/favorites/use-favorites.ts';
import { runnerName } from '../../lib/runner-name.ts';

/**
 * Follows an athlete (or stops): the event's one follow list (issue 27), the same as the tables'
 * star, the favourites page, the map, the notifications and `/genericTracking`.
 */
export function FollowButton({ card }: { card: AthleteCard }) {
  const { t } = useTranslation('live');
  const { eventId, athlete } = card;
  const { bib, trackingKey } = athlete;
  const name = runnerName(athlete);
  const { favorites, toggle } = useFavorites(eventId);
  const following = favorites.has(bib);
  return (
    <Button
      variant={following ? 'contained' : 'outlined'}
      aria-pressed={following}
      aria-label={following ? t('follow.stop', { name }) : t('follow.start', { name })}
      startIcon={<MdiIcon path={following ? mdiAccountMultipleCheck : mdiAccountMultiplePlus} aria-hidden />}
      onClick={() => toggle(bib, trackingKey)}
    >
      {following ? t('follow.following') : t('follow.follow')}
    </Button>
  );
}
