import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ComingSoon } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';

/**
 * The shell of a live page whose content comes with the live-views issue: heading, breadcrumbs
 * (the event when the route has one) and a translated empty state — never a crash.
 */
export function LivePlaceholder({ titleKey, subtitle }: { titleKey: string; subtitle?: string }) {
  const { t } = useTranslation();
  const { eventId } = useParams();
  const title = subtitle ? `${t(titleKey)} — ${subtitle}` : t(titleKey);
  const crumbs: [string, string?][] = eventId
    ? [[eventId, paths.eventHome(eventId)], [t(titleKey)]]
    : [[t(titleKey)]];
  return <ComingSoon title={title} crumbs={crumbs} />;
}
