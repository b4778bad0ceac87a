import { Alert, Collapse } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useConnectionState } from './realtime-provider.tsx';

/**
 * A discreet banner while the live connection is lost or coming back (issue 5); nothing while
 * connected, before the first connection, or without realtime. `role=status`: announced politely.
 */
export function ConnectionBanner() {
  const { t } = useTranslation('results');
  const { state, lost } = useConnectionState();
  const reconnecting = state === 'connecting';
  return (
    <Collapse in={lost} unmountOnExit>
      <Alert
        severity={reconnecting ? 'info' : 'warning'}
        role="status"
        variant="outlined"
        sx={{ borderRadius: 0, py: 0, borderWidth: 0, borderBottomWidth: 1 }}
        data-testid="connection-banner"
      >
        {reconnecting ? t('realtime.reconnecting') : t('realtime.lost')}
      </Alert>
    </Collapse>
  );
}
