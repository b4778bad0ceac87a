import { expireOrders } from './confirm.ts';
import { createDetail } from './service/detail.ts';
import { createEntries } from './service/entries.ts';
import { createEntryChecks } from './service/entry-checks.ts';
import { createMessages } from './service/messages.ts';
import { createOffers } from './service/offers.ts';
import { createRanking } from './service/ranking.ts';
import { createContext, type DepositsDeps } from './service/shared.ts';
import { createSubmission } from './service/submission.ts';
import { createSubstitutions } from './service/substitutions.ts';

export { type Actor, type DepositsDeps, htmlOf } from './service/shared.ts';

/**
 * Group deposits (issue 18): a captain's entry file for an event, its members and entries, the
 * submission that freezes prices into orders, messages, and what follows payment.
 *
 * Composed of parts that each hold one responsibility (issue 30), over one shared context
 * (`service/shared.ts`: dependencies, clock, links, deadline and state rules):
 * `service/offers.ts` (the offer, the deposit's creation and states), `service/detail.ts` (a
 * deposit as an actor sees it), `service/entry-checks.ts` and `service/entries.ts` (entries),
 * `service/substitutions.ts` (runner changes after payment), `service/submission.ts` (orders),
 * `service/messages.ts` (mails) and `service/ranking.ts` (the team's ranking).
 */
export function createDepositsService(deps: DepositsDeps) {
  const ctx = createContext(deps);
  const offers = createOffers(ctx);
  const checks = createEntryChecks(ctx);
  const messages = createMessages(ctx);
  const substitutions = createSubstitutions(ctx, checks);
  const entries = createEntries(ctx, checks, substitutions, messages);
  const { detail } = createDetail(ctx);
  const { submit } = createSubmission(ctx);
  const { ranking } = createRanking(ctx);

  return {
    offer: offers.offer,
    joinPreview: offers.joinPreview,
    detail,
    create: offers.create,
    patch: offers.patch,
    addEntries: entries.addEntries,
    updateEntry: entries.updateEntry,
    decideSubstitution: substitutions.decideSubstitution,
    removeEntry: entries.removeEntry,
    submit,
    move: offers.move,
    postMessage: messages.postMessage,
    ranking,
    link: ctx.link,
    expire: () => expireOrders(ctx.database, ctx.now()),
  };
}

export type DepositsService = ReturnType<typeof createDepositsService>;
