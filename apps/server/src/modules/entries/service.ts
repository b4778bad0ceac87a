import { createEnter } from './service/enter.ts';
import { createMails } from './service/mails.ts';
import { createSelfService } from './service/self-service.ts';
import { createSettings } from './service/settings.ts';
import { createContext, type EntriesDeps } from './service/shared.ts';
import { createStaff } from './service/staff.ts';
import { createStartList } from './service/start-list.ts';
import { createSweep } from './service/sweep.ts';
import { createTeams } from './service/teams.ts';

export type { EntriesDeps } from './service/shared.ts';

/**
 * Online entries (issue 38), composed of parts that each hold one responsibility over one shared
 * context: settings and the public page, entering (places held), self-service, the organiser's
 * list and manual entries, the sweep (expiries, waitlist, late refunds, confirmations), mails.
 */
export function createEntriesService(deps: EntriesDeps) {
  const ctx = createContext(deps);
  const mails = createMails(ctx);
  const sweep = createSweep(ctx, mails);
  const enter = createEnter(ctx);
  const settings = createSettings(ctx);
  return {
    settings: {
      ...settings,
      // New settings (a code added, a price changed) count at once on this node, not after the
      // second the entering part keeps an event's rules.
      save: async (...args: Parameters<typeof settings.save>) => {
        const view = await settings.save(...args);
        enter.forget(args[0]);
        return view;
      },
    },
    enter,
    teams: createTeams(ctx, enter),
    startList: createStartList(ctx),
    self: createSelfService(ctx, mails),
    staff: createStaff(ctx, mails),
    sweep,
  };
}

export type EntriesService = ReturnType<typeof createEntriesService>;
