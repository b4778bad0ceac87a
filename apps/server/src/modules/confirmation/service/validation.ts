import * as repo from '../repository.ts';
import { type KnownPerson, personKeys, validateRows } from '../validate.ts';
import type { Settlement } from './settlement.ts';
import type { Actor, ConfirmationContext } from './shared.ts';

/**
 * A document's validation (issue 17): every row checked against the event (races, bib ranges,
 * capacities, participants, other documents' rows), the verdicts stored, then the document's
 * status settled from its rows.
 */
export function createValidation(ctx: ConfirmationContext, settlement: Settlement) {
  const { database, today } = ctx;
  const { settleStatus } = settlement;

  /**
   * Validates every row against the event (races, participants, other documents) and stores
   * the verdicts; moves the document to the status its rows give. Mails the contact when the
   * document becomes confirmed.
   */
  async function revalidate(doc: repo.DocumentRecord, actor: Actor | null) {
    const rows = await repo.rowsOf(database, doc.id);
    const races = await repo.racesOfEvents(database, [doc.eventId]);
    const bibs = await repo.bibsOf(
      database,
      races.map((r) => r.id),
    );
    const own = new Set(
      rows.filter((r) => r.participantRaceId).map((r) => `${r.participantRaceId}\u0000${r.participantBib}`),
    );
    const participants: KnownPerson[] = (await repo.participantsOfEvent(database, doc.eventId))
      .filter((p) => !own.has(`${p.raceId}\u0000${p.bib}`))
      .map((p) => ({
        link: {
          by: 'name',
          kind: 'participant',
          raceId: p.raceId,
          bib: p.bib,
          name: `${p.firstName} ${p.lastName}`,
        },
        ...personKeys({ firstName: p.firstName, lastName: p.lastName, birthDate: p.birthDate ?? '' }),
        emailKey: '',
      }));
    const otherRows: KnownPerson[] = (await repo.otherRowsOfEvent(database, doc.eventId, doc.id)).map(
      (r) => ({
        link: {
          by: 'name',
          kind: 'document',
          documentId: r.documentId,
          documentTitle: r.title,
          rowId: r.id,
          position: r.position,
        },
        ...personKeys(r.fields),
      }),
    );
    const verdicts = await validateRows(
      rows.map((r) => ({
        id: r.id,
        position: r.position,
        fields: r.fields,
        decision: r.decision,
        participantRaceId: r.participantRaceId,
      })),
      {
        today: today(),
        defaultRaceId: doc.defaultRaceId,
        participants,
        otherRows,
        races: races.map((r) => ({
          id: r.id,
          name: r.name,
          date: r.date,
          categories: r.categories,
          ageBasis: r.ageBasis,
          capacity: r.settings.capacity,
          bibFrom: r.settings.bibFrom,
          bibTo: r.settings.bibTo,
          registered: r.participants,
          takenBibs: new Set(bibs.filter((b) => b.raceId === r.id).map((b) => b.bib)),
        })),
      },
    );
    const changed = rows.filter((r) => {
      const v = verdicts.get(r.id)!;
      return (
        JSON.stringify(v.issues) !== JSON.stringify(r.issues) ||
        JSON.stringify(v.duplicateOf) !== JSON.stringify(r.duplicateOf) ||
        v.category !== r.category
      );
    });
    await repo.saveVerdicts(
      database,
      changed.map((r) => ({ id: r.id, ...verdicts.get(r.id)! })),
    );
    await settleStatus(doc, actor);
  }

  return { revalidate };
}

export type Validation = ReturnType<typeof createValidation>;
