import { z } from 'zod';
import { ENTRY_CODE_PATTERN } from './entries.ts';

/**
 * Race-day pickup API contract (issue 39). Paths under `apiUrlBase`, for the event's pickup staff
 * (organisation role `pickup`) and its owners and staff:
 *
 *   GET  pickup/events/{event}/list               → PickupList (every runner: name, race, wave, bib, chips,
 *                                                   add-ons to hand out, unpaid balance, guardian consent missing)
 *   GET  pickup/events/{event}/entries/{code}     → PickupRunner (an entry's QR scanned)
 *   POST pickup/events/{event}/ops  { ops }       → { answers } (handouts, bibs, chips, payments, late entries;
 *                                                   each op once by its `opId`, queued offline and sent again safely)
 *   GET  pickup/events/{event}/conflicts          → PickupConflict[] (a runner handed out twice)
 *   POST pickup/events/{event}/conflicts/{id}/resolve { keep: first|second } → PickupConflict (one handout
 *                                                   kept, the other undone, with who and when)
 * For owners and staff only:
 *   GET  pickup/events/{event}/dashboard          → PickupDashboard
 *   POST pickup/events/{event}/dns  { raceId }    → { marked } (runners never picked up, after the start)
 *   GET  pickup/events/{event}/list.pdf?order=&from=&to=&lng= → the paper fallback
 *
 * Never in these answers: a runner's address, e-mail, phone, or answers marked private.
 */

const uuid = z.string().uuid();
const cents = z.number().int().min(0).max(100_000_00);
const instant = z.iso.datetime({ offset: true });
/** A phone's operation id: random, made on the device; the same id twice is one operation. */
export const pickupOpIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

export const pickupRunnerSchema = z.object({
  id: uuid,
  raceId: z.string(),
  raceName: z.string(),
  wave: z.string().nullable(),
  bib: z.string().nullable(),
  chips: z.array(z.string()),
  firstName: z.string(),
  lastName: z.string(),
  /** The entry code (its QR) when the runner entered online or late; null for imported runners. */
  code: z.string().nullable(),
  addOns: z.array(z.object({ key: z.string(), name: z.string(), quantity: z.number().int() })),
  /** What the runner still owes (paid on site chosen at entry), in the event's currency. */
  unpaidCents: z.number().int(),
  /** A minor whose race asks for a guardian, and no guardian was given. */
  guardianMissing: z.boolean(),
  status: z.enum(['registered', 'DNS', 'DNF', 'DSQ']),
  handedOut: z.object({ at: z.string(), by: z.string() }).nullable(),
});
export type PickupRunner = z.infer<typeof pickupRunnerSchema>;

export const pickupListSchema = z.object({
  event: z.object({ id: z.string(), name: z.string(), timeZone: z.string(), lang: z.enum(['en', 'fr']) }),
  races: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      firstBib: z.number().int().nullable(),
      lastBib: z.number().int().nullable(),
      started: z.boolean(),
      /** Late entries on site: the race takes entries (its registration is set up). */
      lateEntries: z.boolean(),
    }),
  ),
  addOns: z.array(z.object({ key: z.string(), name: z.string(), priceCents: z.number().int() })),
  currency: z.string(),
  runners: z.array(pickupRunnerSchema),
  at: z.string(),
});
export type PickupList = z.infer<typeof pickupListSchema>;

const opBase = { opId: pickupOpIdSchema, at: instant, device: z.string().max(60).default('') };
const participantOp = { ...opBase, participantId: uuid };

export const pickupOpSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('handout'),
      ...participantOp,
      /** What was handed out: `bib`, `chip` and add-on keys. */
      items: z.array(z.string().min(1).max(40)).max(30).default([]),
      idNote: z.string().max(200).default(''),
    })
    .strict(),
  z
    .object({
      kind: z.literal('bib'),
      ...participantOp,
      /** A bib typed by the volunteer; absent: the race's next free bib. */
      bib: z.string().trim().min(1).max(12).optional(),
    })
    .strict(),
  z.object({ kind: z.literal('chip'), ...participantOp, chip: z.string().trim().min(1).max(64) }).strict(),
  z
    .object({
      kind: z.literal('pay'),
      ...participantOp,
      method: z.enum(['cash', 'card']),
      amountCents: cents.min(1),
    })
    .strict(),
  z
    .object({
      kind: z.literal('late'),
      ...opBase,
      runner: z
        .object({
          raceId: z.string().min(1).max(100),
          firstName: z.string().trim().min(1).max(100),
          lastName: z.string().trim().min(1).max(100),
          email: z.string().trim().max(200).default(''),
          birthDate: z.iso.date().nullable().optional(),
          gender: z.enum(['M', 'F', 'X']).nullable().optional(),
          addOns: z
            .array(z.object({ key: z.string().max(40), quantity: z.number().int().min(1).max(10) }))
            .max(20)
            .default([]),
        })
        .strict(),
      method: z.enum(['cash', 'card']),
    })
    .strict(),
]);
export type PickupOp = z.input<typeof pickupOpSchema>;
export const pickupOpsInputSchema = z.object({ ops: z.array(pickupOpSchema).min(1).max(200) }).strict();

export const pickupOpAnswerSchema = z.object({
  opId: z.string(),
  /** done; conflict (a second handout, kept for the organiser); refused (with its code, final);
   * pending (the same operation is being done by another request: send it again later). */
  status: z.enum(['done', 'conflict', 'refused', 'pending']),
  code: z.string().optional(),
  message: z.string().optional(),
  /** Who holds a chip already (CHIP_TAKEN) or a typed bib (BIB_TAKEN). */
  holder: z.object({ name: z.string(), bib: z.string().nullable() }).optional(),
  runner: pickupRunnerSchema.optional(),
});
export type PickupOpAnswer = z.infer<typeof pickupOpAnswerSchema>;
export const pickupOpsAnswerSchema = z.object({ answers: z.array(pickupOpAnswerSchema) });

const handoutSide = z.object({
  at: z.string(),
  by: z.string(),
  device: z.string(),
  items: z.array(z.string()),
});
/**
 * A runner handed out twice (two phones offline): `first` is the handout kept when the `second`
 * arrived. Resolved by keeping one and undoing the other (`resolution`), with who and when; both
 * stay on record.
 */
export const pickupConflictSchema = z.object({
  id: z.string(),
  participantId: z.string(),
  name: z.string(),
  bib: z.string().nullable(),
  raceName: z.string(),
  first: handoutSide.nullable(),
  second: handoutSide,
  state: z.enum(['conflict', 'resolved']),
  /** Which handout was kept (the other undone); null while open. */
  resolution: z.enum(['first', 'second']).nullable(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
});
export type PickupConflict = z.infer<typeof pickupConflictSchema>;
/** Resolving a conflict: keep the first handout (the second undone) or the second (the first undone). */
export const pickupResolveInputSchema = z.object({ keep: z.enum(['first', 'second']) }).strict();
export type PickupResolveInput = z.infer<typeof pickupResolveInputSchema>;

export const pickupDashboardSchema = z.object({
  /** The event's zone (hours and times are the event's local time). */
  timeZone: z.string(),
  races: z.array(
    z.object({
      raceId: z.string(),
      name: z.string(),
      runners: z.number().int(),
      pickedUp: z.number().int(),
      started: z.boolean(),
    }),
  ),
  /** Handouts per hour of the event's day (`hour`: the event's local time, `YYYY-MM-DD HH:00`), by race. */
  perHour: z.array(
    z.object({
      hour: z.string(),
      count: z.number().int(),
      races: z.array(z.object({ raceId: z.string(), count: z.number().int() })),
    }),
  ),
  addOns: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      /** Units sold (entries confirmed). */
      sold: z.number().int(),
      handedOut: z.number().int(),
      /** Sold units not handed out yet. */
      toHandOut: z.number().int(),
      /** Units the organiser has (the add-on's stock), null when unlimited. */
      stock: z.number().int().nullable(),
      /** Units still on the tables: stock minus handed out; null when unlimited. */
      onSite: z.number().int().nullable(),
      /** On the tables and not owed to anyone yet (on site minus to hand out); null when unlimited. */
      spare: z.number().int().nullable(),
      /** Units left for sale (stock), null when unlimited. */
      stockLeft: z.number().int().nullable(),
    }),
  ),
  collected: z.array(
    z.object({ method: z.enum(['cash', 'card']), cents: z.number().int(), count: z.number().int() }),
  ),
  /** What runners still owe (paid on site chosen at entry, not paid yet). */
  unpaid: z.object({ cents: z.number().int(), runners: z.number().int() }),
  currency: z.string(),
  notPickedUp: z.array(
    z.object({ id: z.string(), name: z.string(), bib: z.string().nullable(), raceName: z.string() }),
  ),
  notPickedUpCount: z.number().int(),
  conflicts: z.number().int(),
});
export type PickupDashboard = z.infer<typeof pickupDashboardSchema>;

export const pickupDnsInputSchema = z.object({ raceId: z.string().min(1).max(100) }).strict();
export const pickupDnsAnswerSchema = z.object({ marked: z.number().int() });

export const pickupPdfQuerySchema = z.object({
  order: z.enum(['bib', 'name']).default('bib'),
  from: z.coerce.number().int().min(0).max(10_000_000).optional(),
  to: z.coerce.number().int().min(0).max(10_000_000).optional(),
  /** Names from (a letter or prefix) to (inclusive prefix), by last name. */
  fromName: z.string().max(40).optional(),
  toName: z.string().max(40).optional(),
  race: z.string().max(100).optional(),
  lng: z.enum(['en', 'fr']).optional(),
});

export const pickupCodeSchema = z.string().regex(ENTRY_CODE_PATTERN);
