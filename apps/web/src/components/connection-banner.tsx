import { mdiAlertOutline, mdiInformationOutline } from '@mdi/js';
import { Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useConnectionState } from '../lib/realtime/realtime-provider.tsx';
import { MdiIcon } from './mdi-icon.tsx';

/**
 * A discreet banner while the live connection is lost or coming back (issue 5); nothing while
 * connected, before the first connection, or without realtime. `role=status`: announced politely.
 * A plain bar rather than MUI's Alert: it is in every page's first chunk (issue 19 budget).
 */
export function ConnectionBanner() {
  const { t } = useTranslation('results');
  const { state, lost } = useConnectionState();
  if (!lost) return null;
  const reconnecting = state === 'connecting';
  return (
    <Box
      role="status"
      data-testid="connection-banner"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 2,
        py: 0.75,
        fontSize: 14,
        borderBottom: 1,
        borderColor: reconnecting ? '#0b5d87' : '#8a5300',
        bgcolor: reconnecting ? '#e8f4fa' : '#fff4e5',
        color: reconnecting ? '#0b3d57' : '#5c3700',
      }}
    >
      <MdiIcon path={reconnecting ? mdiInformationOutline : mdiAlertOutline} fontSize="small" />
      {reconnecting ? t('realtime.reconnecting') : t('realtime.lost')}
    </Box>
  );
}
