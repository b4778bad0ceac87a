import type { Database, Sql } from '../../../db/database.ts';
import { AppError } from '../../../errors.ts';
import type { Results } from '../../results/port.ts';
import type { MollieProvider } from '../providers/mollie.ts';
import type { StripeProvider } from '../providers/stripe.ts';
import * as repo from '../repository.ts';

/**
 * What every part of the payments service shares (issue 30: the service split by
 * responsibility): its dependencies, the clock, and `receive` — money recorded once per
 * reference, audited, the order's deposit settled — which online payments, statements and the
 * manual queue all end in. Each part (`orders.ts`, `online.ts`, `statements.ts`,
 * `reconciliation.ts`, `refunds.ts`) is a factory taking this context; `../service.ts` composes
 * them.
 */

export interface PaymentsDeps {
  database: Database;
  results: Results;
  mollie: MollieProvider | null;
  stripe: StripeProvider | null;
  publicUrl: string | undefined;
  now?: () => Date;
  /**
   * What a paid order settles, in the payment's transaction: the deposits module settles the
   * order's deposit (its runners become participants) and answers the contexts to reload. Given
   * by whoever composes the modules (deposits/plugin.ts), so payments import nothing of deposits.
   */
  settle?: (sql: Sql, order: repo.OrderRow) => Promise<string[]>;
  /**
   * What follows a payment once its transaction is committed (issue 38: an entry paid after its
   * place was gone is refunded, confirmations are mailed). Added by other modules (`onPaid`).
   */
  paidHooks?: ((order: repo.OrderRow) => Promise<void>)[];
  /**
   * Waits for an order's pay step to start (issue 38: entries' orders give way to the places
   * being taken in a rush); answers what to call when the step is done. Added by other modules
   * (`beforePay`).
   */
  payTurns?: ((order: repo.OrderRow) => Promise<(() => void) | undefined>)[];
}

/** The parts' context: the dependencies, the clock and `receive`. */
export function createContext(deps: PaymentsDeps) {
  const { database, results } = deps;
  const now = deps.now ?? (() => new Date());

  /**
   * Records money received, once per provider reference, audits it and settles the deposit
   * (paid, entries confirmed as participants). Returns false when the reference was known.
   */
  async function receive(
    sql: Sql,
    order: repo.OrderRow,
    p: {
      provider: 'bank' | 'mollie' | 'stripe';
      providerRef: string;
      amountCents: number;
      actorSub?: string | null;
      bankLineId?: string | null;
      note?: string;
    },
  ): Promise<{ fresh: boolean; contexts: string[] }> {
    const fresh = await repo.insertPayment(sql, { orderId: order.id, ...p });
    if (!fresh) return { fresh, contexts: [] };
    await repo.audit(sql, {
      organisationId: order.organisationId,
      orderId: order.id,
      bankLineId: p.bankLineId ?? null,
      action: p.actorSub ? 'manual_match' : p.provider === 'bank' ? 'auto_match' : `${p.provider}_paid`,
      amountCents: p.amountCents,
      actorSub: p.actorSub ?? null,
      note: p.note ?? '',
    });
    // A document's order (issue 29) has no deposit to settle: its runners are participants already.
    return {
      fresh,
      contexts: (order.depositId || order.registration) && deps.settle ? await deps.settle(sql, order) : [],
    };
  }

  const paidHooks = deps.paidHooks ?? [];
  /** Runs the hooks of a payment recorded (after its transaction); a hook's failure is retried by its owner's sweep. */
  async function afterPaid(order: repo.OrderRow) {
    for (const hook of paidHooks) await hook(order).catch(() => undefined);
  }

  const payTurns = deps.payTurns ?? [];
  /** Runs `step` in its turn (every module's `beforePay` hook), releasing the turns after it. */
  async function inPayTurn<T>(order: repo.OrderRow, step: () => Promise<T>): Promise<T> {
    const releases: (() => void)[] = [];
    try {
      for (const turn of payTurns) {
        const release = await turn(order);
        if (release) releases.push(release);
      }
      return await step();
    } finally {
      for (const release of releases) release();
    }
  }

  return { deps, database, results, now, receive, paidHooks, afterPaid, payTurns, inPayTurn };
}

export type PaymentsContext = ReturnType<typeof createContext>;

/** A provider's failure is a 502 the caller (or the provider's webhook retry) may try again. */
export async function providerCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(502, 'PROVIDER_FAILED', `The payment provider failed: ${(error as Error).message}`);
  }
}
