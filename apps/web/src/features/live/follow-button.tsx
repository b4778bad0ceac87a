import { mdiAccountMultipleCheck, mdiAccountMultiplePlus } from '@mdi/js';
import { Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../components/mdi-icon.tsx';
import { toggleFollowed, useFollowed } from './followed.ts';

/** Adds an athlete to (or removes them from) the athletes followed together on `/genericTracking`. */
export function FollowButton({ trackingKey, name }: { trackingKey: string; name: string }) {
  const { t } = useTranslation('live');
  const following = useFollowed().includes(trackingKey);
  return (
    <Button
      variant={following ? 'contained' : 'outlined'}
      aria-pressed={following}
      aria-label={following ? t('follow.stop', { name }) : t('follow.start', { name })}
      startIcon={<MdiIcon path={following ? mdiAccountMultipleCheck : mdiAccountMultiplePlus} aria-hidden />}
      onClick={() => toggleFollowed(trackingKey)}
    >
      {following ? t('follow.following') : t('follow.follow')}
    </Button>
  );
}
