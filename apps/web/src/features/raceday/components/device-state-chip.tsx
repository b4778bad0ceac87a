import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { DeviceRow } from '../api/raceday.ts';

const COLOR = { connected: 'success', waiting: 'warning', error: 'error', disabled: 'default' } as const;

/** A device's state in words and colour (never colour alone). */
export function DeviceStateChip({ status }: { status: DeviceRow['status'] }) {
  const { t } = useTranslation('raceday');
  return (
    <Chip
      size="small"
      color={COLOR[status.state]}
      label={t(`state.${status.state}`)}
      title={status.reason ?? undefined}
      data-testid="device-state"
    />
  );
}
