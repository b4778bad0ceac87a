import {
  mdiAccountCheck,
  mdiAccountGroup,
  mdiCalendarEdit,
  mdiCertificateOutline,
  mdiClipboardAccount,
  mdiFileCheckOutline,
  mdiFileExportOutline,
  mdiFlagCheckered,
  mdiShieldAccountOutline,
  mdiTimerOutline,
  mdiTshirtCrew,
  mdiWebhook,
} from '@mdi/js';
import { consolePaths } from '../../config/console-paths.ts';
import { paths } from '../../config/paths.ts';

/** One entry of an event's console navigation. */
export interface EventNavEntry {
  /** Stable id (also the test id `event-nav-{key}`). */
  key: string;
  /** Key in the `console` i18n namespace (or `ns:key` of another namespace). */
  label: string;
  icon: string;
  to: (eventId: string) => string;
}

/**
 * The navigation of an event in the console: ONE LINE PER ORGANISER FEATURE. Other branches add
 * their entry here (race day, exports, documents, deposits …) and their routes to
 * `app/routes/console/routes.tsx`; the event layout draws the list as tabs in this order.
 */
export const eventNav: EventNavEntry[] = [
  { key: 'details', label: 'eventNav.details', icon: mdiCalendarEdit, to: consolePaths.event },
  { key: 'races', label: 'eventNav.races', icon: mdiFlagCheckered, to: consolePaths.eventRaces },
  // Participants (issue 14 part B, branch `participants`): grid, imports, bibs, chips.
  {
    key: 'participants',
    label: 'eventNav.participants',
    icon: mdiAccountGroup,
    to: consolePaths.participants,
  },
  // Race day (issue 15): devices, passings desk, start control, audit log.
  {
    key: 'raceday',
    label: 'raceday:title',
    icon: mdiTimerOutline,
    to: (eventId) => consolePaths.raceday(eventId),
  },
  // Race-day pickup (issue 39): the dashboard, DNS after the start, the paper list.
  { key: 'pickup', label: 'pickup:dashboard.title', icon: mdiTshirtCrew, to: consolePaths.pickup },
  // Results out (issue 16): exports and TV feeds, the certificate designer, webhooks.
  { key: 'exports', label: 'exports:nav.exports', icon: mdiFileExportOutline, to: consolePaths.exports },
  {
    key: 'certificate',
    label: 'exports:nav.certificate',
    icon: mdiCertificateOutline,
    to: consolePaths.certificate,
  },
  { key: 'webhooks', label: 'exports:nav.webhooks', icon: mdiWebhook, to: consolePaths.webhooks },
  // Documents (issue 17): the event's registration documents (clubs, schools, companies), reached
  // by clicking for the organisation's owners and staff too (issue 29), on the confirmation pages.
  {
    key: 'documents',
    label: 'confirmation:eventNav',
    icon: mdiFileCheckOutline,
    to: paths.confirmationEvent,
  },
  // The runner's space (issue 40): claims on entries without an e-mail.
  { key: 'claims', label: 'runner:claims.nav', icon: mdiAccountCheck, to: consolePaths.claims },
  // Personal data (issue 40): how long it is kept, what was removed and when.
  { key: 'privacy', label: 'privacy:console.nav', icon: mdiShieldAccountOutline, to: consolePaths.privacy },
  // Online entries (issue 38).
  { key: 'entries', label: 'entries:staff.nav', icon: mdiClipboardAccount, to: consolePaths.entries },
  // Deposits (issue 18): add here.
];

/**
 * The i18n namespaces the navigation's labels come from (`console` first, the default one): the
 * event layout loads them all, or a label of another namespace shows as its raw key (issue 29).
 */
export const eventNavNamespaces: string[] = [
  'console',
  ...new Set(eventNav.flatMap((entry) => (entry.label.includes(':') ? [entry.label.split(':')[0]!] : []))),
];
