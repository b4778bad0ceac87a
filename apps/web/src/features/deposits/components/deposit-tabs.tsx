import { Tab, Tabs } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';

const VIEWS = ['collect', 'message', 'overview', 'paymentok'] as const;
export type DepositViewName = (typeof VIEWS)[number] | 'detail';

/** The deposit's pages as tabs (spec §2: collect, message, overview, paymentok, `{id}d`). */
export function DepositTabs({
  eventId,
  id,
  current,
}: {
  eventId: string;
  id: string;
  current: DepositViewName;
}) {
  const { t } = useTranslation('deposits');
  return (
    <Tabs
      value={current}
      variant="scrollable"
      allowScrollButtonsMobile
      aria-label={t('tabs.label')}
      sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
    >
      {VIEWS.map((v) => (
        <Tab
          key={v}
          value={v}
          label={t(`tabs.${v}`)}
          component={RouterLink}
          to={paths.depositView(eventId, id, v)}
        />
      ))}
      <Tab
        value="detail"
        label={t('tabs.detail')}
        component={RouterLink}
        to={paths.depositDetail(eventId, id)}
      />
    </Tabs>
  );
}
