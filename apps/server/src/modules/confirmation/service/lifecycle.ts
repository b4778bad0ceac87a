import type { CreateDocument, DocumentDetail } from '@tempora/contracts';
import { errors } from '../../../errors.ts';
import * as repo from '../repository.ts';
import type { Settlement } from './settlement.ts';
import type { Actor, ConfirmationContext } from './shared.ts';
import type { Views } from './views.ts';

/**
 * A document's life (issue 17): its creation, its rejection (mailed to the contact; not once
 * rows are participants) and its closing once confirmed.
 */
export function createLifecycle(ctx: ConfirmationContext, views: Views, settlement: Settlement) {
  const { database, history, reload } = ctx;
  const { detail } = views;
  const { notify } = settlement;

  async function create(input: Required<CreateDocument>, actor: Actor): Promise<DocumentDetail> {
    if (input.defaultRaceId) {
      const race = await repo.findRace(database, input.defaultRaceId);
      if (!race || race.eventId !== input.eventId)
        throw errors.badRequest('RACE_NOT_FOUND', `No race '${input.defaultRaceId}' in this event`);
    }
    const id = await repo.insertDocument(database, {
      ...input,
      contactName: input.contactName ?? '',
      createdBy: actor.sub,
    });
    await history(id, actor, 'created', { title: input.title, sender: input.senderName });
    return detail(await reload(id));
  }

  async function reject(doc: repo.DocumentRecord, reason: string, actor: Actor): Promise<DocumentDetail> {
    if (!['uploaded', 'mapped', 'validated', 'partlyConfirmed'].includes(doc.status))
      throw errors.conflict('INVALID_TRANSITION', `A ${doc.status} document cannot be rejected`);
    const c = (await repo.countsOf(database, [doc.id])).get(doc.id);
    if (c?.confirmed)
      throw errors.conflict('DOCUMENT_HAS_PARTICIPANTS', `${c.confirmed} row(s) are already participants`);
    await repo.updateDocument(database, doc.id, { status: 'rejected', rejectReason: reason });
    await history(doc.id, actor, 'rejected', { reason });
    await notify(await reload(doc.id), 'rejected');
    return detail(await reload(doc.id));
  }

  async function close(doc: repo.DocumentRecord, actor: Actor): Promise<DocumentDetail> {
    if (doc.status !== 'confirmed')
      throw errors.conflict(
        'INVALID_TRANSITION',
        `Only a confirmed document can be closed (it is ${doc.status})`,
      );
    await repo.updateDocument(database, doc.id, { status: 'closed' });
    await history(doc.id, actor, 'closed');
    return detail(await reload(doc.id));
  }

  return { create, reject, close };
}
