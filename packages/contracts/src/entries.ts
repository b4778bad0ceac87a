import { z } from 'zod';
import { refundPolicySchema } from './payments.ts';

/**
 * Online entries API contract (issue 38, product.md "Entries"). Paths under `apiUrlBase`:
 *
 *   GET  entries/events/{event}                         → RegistrationPage (public: open, races, prices, places, questions, add-ons, waiver)
 *   POST entries/events/{event}/orders  EntryOrderInput → EntryOrder (places held; pay with payments/orders/{id}/pay)
 *   GET  entries/orders/{id}                            → EntryOrder (the payer, staff)
 *   POST entries/orders/{id}/on-site                    → EntryOrder (pay on site, when the organiser allows)
 *   GET  entries/mine                                   → MyEntry[] (the caller's entries, with what each policy allows)
 *   GET  entries/entry/{code}                           → MyEntry (the entry's owner or the organiser's staff)
 *   GET  entries/entry/{code}/calendar.ics              → text/calendar
 *   POST entries/entry/{code}/quote  EntryActionInput   → EntryQuote (fee or refund, before confirming)
 *   POST entries/entry/{code}/action EntryActionInput   → EntryActionResult
 *   POST entries/races/{race}/waitlist { lang }         → WaitlistPlace (a full race)
 *   GET  entries/waitlists/mine                         → MyWaitlist (the caller's waitlist places, closed ones too)
 *   GET/PUT entries/staff/events/{event}/settings       → RegistrationSettings
 *   GET  entries/staff/events/{event}/entries?race=&state=&q= → StaffEntries (rows, answers, per day, per race)
 *   GET  entries/staff/events/{event}/export.{csv|xlsx} → the entries list with answers as columns
 *   GET  entries/staff/entries/{code}                   → StaffEntry (its history)
 *   POST entries/staff/events/{event}/manual  ManualEntryInput → StaffEntry (comped or paid on site)
 *   POST entries/staff/races/{race}/release { places }  → { invited } (more places; the waitlist invited)
 *   POST entries/staff/events/{event}/expire            → { expired, invited, closed } (holds and invitations past
 *        their time; `closed`: runners still waiting in races now closed, told once by mail)
 *
 * The entry code (`code`) is the entry's stable, unguessable token (`E` + 20 characters of
 * base 32, 100 bits): printed as a QR code on the confirmation and resolved by the organiser's
 * staff (`entries/staff/entries/{code}`, the pickup desk of issue 39).
 */

export const ENTRY_CODE_PATTERN = /^E[0-9A-Z]{20}$/;
export const entryCodeSchema = z.string().regex(ENTRY_CODE_PATTERN);

const cents = z.number().int().min(0).max(1_000_000_00);
const isoInstant = z.iso.datetime({ offset: true });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const nullableDay = day.nullable().optional();

export const entryFieldNames = [
  'birthDate',
  'gender',
  'nationality',
  'club',
  'licence',
  'emergencyContact',
  'phone',
] as const;

export const racePricesSchema = z
  .object({
    tiers: z
      .array(z.object({ from: isoInstant, cents }))
      .min(1)
      .max(12),
    agePrices: z
      .array(
        z.object({
          minAge: z.number().int().min(0).max(120).nullable().optional(),
          maxAge: z.number().int().min(0).max(120).nullable().optional(),
          cents,
        }),
      )
      .max(12)
      .default([]),
    memberPrices: z
      .array(z.object({ code: z.string().trim().min(1).max(40), cents }))
      .max(12)
      .default([]),
  })
  .strict();

export const raceRegistrationSchema = z
  .object({
    raceId: z.string().min(1).max(100),
    opensAt: isoInstant.nullable(),
    closesAt: isoInstant.nullable(),
    capacity: z.number().int().min(0).max(1_000_000).nullable(),
    prices: racePricesSchema,
    minAge: z.number().int().min(0).max(120).nullable().default(null),
    maxAge: z.number().int().min(0).max(120).nullable().default(null),
    required: z.array(z.enum(entryFieldNames)).max(7).default([]),
    guardianForMinors: z.boolean().default(false),
    /** Team entries (relays, company challenges): most members of a team; null: no teams. */
    teamSize: z.number().int().min(2).max(100).nullable().default(null),
  })
  .strict();

export const questionKinds = ['text', 'one', 'several', 'yesno', 'number', 'date'] as const;
export const questionSchema = z
  .object({
    key: z.string().regex(/^[a-z0-9_-]{1,40}$/),
    label: z.string().trim().min(1).max(200),
    kind: z.enum(questionKinds),
    options: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
    required: z.boolean().default(false),
    public: z.boolean().default(false),
  })
  .strict();

export const addOnSchema = z
  .object({
    key: z.string().regex(/^[a-z0-9_-]{1,40}$/),
    name: z.string().trim().min(1).max(120),
    priceCents: cents,
    capacity: z.number().int().min(0).max(1_000_000).nullable(),
  })
  .strict();

export const discountCodeSchema = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{2,40}$/),
    raceId: z.string().min(1).max(100).nullable().default(null),
    kind: z.enum(['percent', 'amount']),
    value: z.number().int().min(0).max(1_000_000_00),
    capacity: z.number().int().min(0).max(1_000_000).nullable(),
    validFrom: isoInstant.nullable().default(null),
    validUntil: isoInstant.nullable().default(null),
  })
  .strict()
  .refine((c) => c.kind !== 'percent' || c.value <= 100, { message: 'a percent up to 100', path: ['value'] });

export const entryPolicySchema = z
  .object({
    editUntil: nullableDay,
    moveUntil: nullableDay,
    transferUntil: nullableDay,
    transferFeeCents: cents.default(0),
    deferUntil: nullableDay,
    deferFeeCents: cents.default(0),
    cancelUntil: nullableDay,
    refund: refundPolicySchema.default({ kind: 'none' }),
  })
  .strict();
export type EntryPolicyInput = z.infer<typeof entryPolicySchema>;

export const registrationSettingsSchema = z
  .object({
    holdMinutes: z.number().int().min(1).max(1440).default(15),
    waitlistMinutes: z.number().int().min(1).max(20160).default(1440),
    payOnSite: z.boolean().default(false),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .default('EUR'),
    policy: entryPolicySchema.default({ transferFeeCents: 0, deferFeeCents: 0, refund: { kind: 'none' } }),
    races: z.array(raceRegistrationSchema).max(50),
    questions: z.array(questionSchema).max(50).default([]),
    addOns: z.array(addOnSchema).max(50).default([]),
    codes: z.array(discountCodeSchema).max(500).default([]),
    waiver: z.string().max(20_000).default(''),
    /**
     * The event's next edition (another event of the organisation): a deferred entry's credit is
     * a code only its runner can use there (issue 38). Null: deferrals wait for it to be set.
     */
    nextEventId: z.string().min(1).max(100).nullable().default(null),
    /**
     * What becomes of the places kept for the previous edition's deferral credits in a race left
     * out of `races` (issue 38): moved to another race of this list (`moveTo`), or released
     * (`moveTo: null`; the runners keep their credit's amount). A race left out that keeps places
     * and is not named here: 409 `KEPT_PLACES`, one error `keptPlaces.<raceId>` per race.
     */
    keptPlaces: z
      .array(
        z
          .object({ raceId: z.string().min(1).max(100), moveTo: z.string().min(1).max(100).nullable() })
          .strict(),
      )
      .max(50)
      .default([]),
  })
  .strict();
export type RegistrationSettings = z.infer<typeof registrationSettingsSchema>;
export type RegistrationSettingsInput = z.input<typeof registrationSettingsSchema>;

export const registrationSettingsViewSchema = z.object({
  holdMinutes: z.number(),
  waitlistMinutes: z.number(),
  payOnSite: z.boolean(),
  currency: z.string(),
  policy: entryPolicySchema,
  /** `kept`: of `held`, the places kept for the previous edition's deferral credits (issue 38). */
  races: z.array(raceRegistrationSchema.extend({ taken: z.number(), held: z.number(), kept: z.number() })),
  questions: z.array(questionSchema),
  addOns: z.array(addOnSchema.extend({ taken: z.number(), held: z.number() })),
  codes: z.array(
    z.object({
      code: z.string(),
      raceId: z.string().nullable(),
      kind: z.enum(['percent', 'amount']),
      value: z.number(),
      capacity: z.number().nullable(),
      validFrom: z.string().nullable(),
      validUntil: z.string().nullable(),
      taken: z.number(),
      held: z.number(),
    }),
  ),
  waiver: z.string(),
  waiverVersion: z.number().nullable(),
  nextEventId: z.string().nullable(),
  /** The organisation's other events, for the next edition's choice (newest first). */
  editions: z.array(z.object({ eventId: z.string(), name: z.string(), startDate: z.string() })),
  /** Deferred entries and how many have their code in the next edition. */
  /**
   * Deferral credits: of this event (`deferred`, `issued` a code in the next edition), and the
   * places kept in this event's races for the previous edition's credits (`kept`, in `held`).
   */
  credits: z.object({ deferred: z.number(), issued: z.number(), kept: z.number() }),
});
export type RegistrationSettingsView = z.infer<typeof registrationSettingsViewSchema>;

export const registrationPageSchema = z.object({
  eventId: z.string(),
  eventName: z.string(),
  timeZone: z.string(),
  currency: z.string(),
  open: z.boolean(),
  closesAt: z.string().nullable(),
  payOnSite: z.boolean(),
  holdMinutes: z.number(),
  policy: entryPolicySchema,
  races: z.array(
    z.object({
      raceId: z.string(),
      name: z.string(),
      raceDate: z.string(),
      open: z.boolean(),
      opensAt: z.string().nullable(),
      closesAt: z.string().nullable(),
      priceCents: z.number(),
      next: z.object({ cents: z.number(), from: z.string() }).nullable(),
      placesLeft: z.number().nullable(),
      waitlist: z.boolean(),
      minAge: z.number().nullable(),
      maxAge: z.number().nullable(),
      required: z.array(z.enum(entryFieldNames)),
      guardianForMinors: z.boolean(),
      teamSize: z.number().nullable(),
    }),
  ),
  questions: z.array(questionSchema),
  addOns: z.array(
    z.object({ key: z.string(), name: z.string(), priceCents: z.number(), left: z.number().nullable() }),
  ),
  waiver: z.object({ version: z.number(), body: z.string() }).nullable(),
});
export type RegistrationPage = z.infer<typeof registrationPageSchema>;

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

export const runnerInputSchema = z
  .object({
    raceId: z.string().min(1).max(100),
    firstName: z.string().trim().min(1).max(100),
    lastName: z.string().trim().min(1).max(100),
    email: z.string().trim().max(200),
    birthDate: day.nullable().optional(),
    gender: z.enum(['M', 'F', 'X']).nullable().optional(),
    nationality: optionalText(3),
    club: optionalText(120),
    licence: optionalText(60),
    emergencyContact: optionalText(200),
    phone: optionalText(40),
    guardianName: optionalText(200),
    guardianEmail: optionalText(200),
    answers: z
      .record(
        z.string().max(40),
        z.union([z.string().max(500), z.array(z.string().max(100)).max(50), z.number(), z.boolean()]),
      )
      .default({}),
    addOns: z
      .array(z.object({ key: z.string().max(40), quantity: z.number().int().min(1).max(10) }))
      .max(20)
      .default([]),
    discountCode: optionalText(40),
    memberCode: optionalText(40),
    waiverVersion: z.number().int().min(1).nullable().optional(),
  })
  .strict();
export type RunnerInput = z.input<typeof runnerInputSchema>;

export const entryOrderInputSchema = z
  .object({
    runners: z.array(runnerInputSchema).min(1).max(10),
    lang: z.enum(['en', 'fr']).default('en'),
    /** A waitlist invitation's token: its held place is the one entered. */
    invitation: z
      .string()
      .regex(/^[A-Za-z0-9_-]{10,60}$/)
      .optional(),
  })
  .strict();
export type EntryOrderInput = z.input<typeof entryOrderInputSchema>;

export const entryStates = ['held', 'confirmed', 'expired', 'cancelled', 'refunded', 'deferred'] as const;

export const entryLineSchema = z.object({
  code: z.string(),
  raceId: z.string(),
  raceName: z.string(),
  name: z.string(),
  state: z.enum(entryStates),
  entryCents: z.number(),
  discountCents: z.number(),
  addOnsCents: z.number(),
  totalCents: z.number(),
  addOns: z.array(z.object({ key: z.string(), name: z.string(), quantity: z.number(), cents: z.number() })),
  /** A deferral credit larger than this entry: the rest, refunded to the runner. */
  creditRefundCents: z.number().optional(),
});

export const entryOrderSchema = z.object({
  orderId: z.string(),
  eventId: z.string(),
  state: z.string(),
  amountCents: z.number(),
  paidCents: z.number(),
  refundedCents: z.number(),
  currency: z.string(),
  holdExpiresAt: z.string().nullable(),
  entries: z.array(entryLineSchema),
  /** Why the entries were not confirmed (a payment after the hold, the place gone: refunded). */
  notice: z.enum(['LATE_REFUNDED']).nullable(),
});
export type EntryOrder = z.infer<typeof entryOrderSchema>;

export const entryActions = ['edit', 'move', 'transfer', 'defer', 'cancel'] as const;
export const entryActionInputSchema = z
  .object({
    action: z.enum(entryActions),
    raceId: z.string().min(1).max(100).optional(),
    runner: runnerInputSchema
      .omit({
        raceId: true,
        addOns: true,
        discountCode: true,
        memberCode: true,
        answers: true,
        waiverVersion: true,
      })
      .partial()
      .optional(),
  })
  .strict();
export type EntryActionInput = z.input<typeof entryActionInputSchema>;

export const entryQuoteSchema = z.object({
  action: z.enum(entryActions),
  allowed: z.boolean(),
  until: z.string().nullable(),
  payCents: z.number(),
  refundCents: z.number(),
  /** A deferral: the credit for the next edition (what was paid minus the fee); 0 otherwise. */
  creditCents: z.number(),
});
export type EntryQuote = z.infer<typeof entryQuoteSchema>;

export const myEntrySchema = z.object({
  code: z.string(),
  eventId: z.string(),
  eventName: z.string(),
  raceId: z.string(),
  raceName: z.string(),
  raceDate: z.string(),
  timeZone: z.string(),
  db: z.string(),
  state: z.enum(entryStates),
  name: z.string(),
  email: z.string(),
  bib: z.string().nullable(),
  orderId: z.string().nullable(),
  /** Whether the order's receipt (payments/orders/{orderId}/receipt.pdf) is the runner's: paid by their account. */
  receipt: z.boolean(),
  /** Whether the order has its numbered invoice (payments/orders/{orderId}/invoice.pdf): paid by the runner's account. */
  invoice: z.boolean(),
  /**
   * The credit notes (avoirs) of the order's refunds once invoiced, by number as printed
   * (payments/orders/{orderId}/credit-notes/{number}); empty when none or not the runner's invoice.
   */
  creditNotes: z.array(z.string()),
  /**
   * A deferred entry's credit (issue 38): its amount, and once the organiser has named the next
   * edition, the code only this runner can use there and whether it was used.
   */
  credit: z
    .object({
      cents: z.number(),
      currency: z.string(),
      code: z.string().nullable(),
      nextEventId: z.string().nullable(),
      nextEventName: z.string().nullable(),
      used: z.boolean(),
      /**
       * The place the credit keeps in the next edition's matching race (counted in its places
       * taken): reserved until the code is used there or registration closes (`until`); used;
       * released (closed, or the credit used in another race). Null: none yet.
       */
      place: z
        .object({
          raceId: z.string(),
          raceName: z.string(),
          state: z.enum(['reserved', 'used', 'released']),
          until: z.string().nullable(),
          /** The next edition's time zone (`until` is shown on its clock). */
          timeZone: z.string(),
        })
        .nullable(),
      /** What was left of the credit once used on a cheaper entry, once refunded to the runner. */
      remainderCents: z.number().nullable(),
    })
    .nullable(),
  totalCents: z.number(),
  currency: z.string(),
  allowed: z.array(z.enum(entryActions)),
  createdAt: z.string(),
});
export type MyEntry = z.infer<typeof myEntrySchema>;

export const entryActionResultSchema = z.object({
  entry: myEntrySchema,
  /** An order to pay (a move to a dearer race, a transfer fee), null when nothing is owed. */
  orderId: z.string().nullable(),
  payCents: z.number(),
  refundCents: z.number(),
});

export const waitlistPlaceSchema = z.object({ id: z.string(), position: z.number(), state: z.string() });

/**
 * The caller's places on waitlists (GET entries/waitlists/mine, issue 38): waiting (with the
 * position among those waiting), invited (until when, the invitation's link is in the mail),
 * expired (an invitation not used in time) or closed (the race's entries closed while waiting:
 * no place will come; told once by mail). Entered and left rows are not listed (an entry shows
 * in My entries).
 */
export const myWaitlistSchema = z.array(
  z.object({
    id: z.string(),
    eventId: z.string(),
    eventName: z.string(),
    raceId: z.string(),
    raceName: z.string(),
    state: z.enum(['waiting', 'invited', 'expired', 'closed']),
    position: z.number().nullable(),
    invitedUntil: z.string().nullable(),
    createdAt: z.string(),
  }),
);
export type MyWaitlist = z.infer<typeof myWaitlistSchema>;

export const staffEntrySchema = z.object({
  code: z.string(),
  raceId: z.string(),
  raceName: z.string(),
  state: z.enum(entryStates),
  source: z.enum(['online', 'manual']),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  gender: z.string().nullable(),
  birthDate: z.string().nullable(),
  bib: z.string().nullable(),
  participantId: z.string().nullable(),
  orderId: z.string().nullable(),
  orderState: z.string().nullable(),
  /**
   * The number of the entry's order's invoice as printed (issue 38), once the order is paid and
   * invoiced; its PDF is payments/orders/{orderId}/invoice.pdf (the payer's or the organiser's
   * staff's). Null before payment, for a comped entry, or an order without an invoice. A family's
   * order has one invoice for all its entries.
   */
  invoice: z.string().nullable(),
  totalCents: z.number(),
  discountCode: z.string().nullable(),
  addOns: z.array(z.object({ key: z.string(), name: z.string(), quantity: z.number(), cents: z.number() })),
  answers: z.record(z.string(), z.unknown()),
  waiverVersion: z.number().nullable(),
  waiverAcceptedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type StaffEntry = z.infer<typeof staffEntrySchema>;

export const staffEntriesSchema = z.object({
  entries: z.array(staffEntrySchema),
  questions: z.array(questionSchema),
  perDay: z.array(z.object({ day: z.string(), count: z.number() })),
  races: z.array(
    z.object({
      raceId: z.string(),
      name: z.string(),
      capacity: z.number().nullable(),
      taken: z.number(),
      held: z.number(),
      revenueCents: z.number(),
      waiting: z.number(),
    }),
  ),
});
export type StaffEntries = z.infer<typeof staffEntriesSchema>;

export const entryHistorySchema = z.array(
  z.object({
    action: z.string(),
    actor: z.string(),
    at: z.string(),
    detail: z.record(z.string(), z.unknown()),
  }),
);

export const manualEntryInputSchema = z
  .object({
    runner: runnerInputSchema,
    payment: z.enum(['comped', 'on_site']),
  })
  .strict();
export type ManualEntryInput = z.input<typeof manualEntryInputSchema>;

export const staffEntriesQuerySchema = z.object({
  race: z.string().max(100).optional(),
  state: z.enum(entryStates).optional(),
  q: z.string().max(100).optional(),
});

/**
 * Team entries (issue 38): relays and company challenges.
 *
 *   POST entries/events/{event}/teams  TeamInput          → Team (the caller is its captain)
 *   GET  entries/teams/{token}                            → Team (public: the link's holder)
 *   POST entries/events/{event}/teams/{token}/join  EntryOrderInput → TeamJoin (each pays: an order
 *        holding the places; the captain pays: the members wait for the captain's order)
 *   POST entries/teams/{token}/order                      → EntryOrder (the captain pays for the members waiting)
 *
 * A link of another event or race is refused on its field (`team`: TEAM_OTHER_EVENT, TEAM_OTHER_RACE).
 */
export const TEAM_TOKEN_PATTERN = /^T[0-9A-Za-z_-]{22}$/;
export const teamTokenSchema = /* @__PURE__ */ (() => z.string().regex(TEAM_TOKEN_PATTERN))();

export const teamInputSchema = /* @__PURE__ */ (() =>
  z
    .object({
      raceId: z.string().min(1).max(100),
      name: z.string().trim().min(2).max(80),
      pays: z.enum(['captain', 'each']),
    })
    .strict())();
export type TeamInput = z.infer<typeof teamInputSchema>;

export const teamSchema = /* @__PURE__ */ z.object({
  token: z.string(),
  eventId: z.string(),
  eventName: z.string(),
  raceId: z.string(),
  raceName: z.string(),
  name: z.string(),
  pays: z.enum(['captain', 'each']),
  teamSize: z.number().nullable(),
  captainName: z.string(),
  /** Whether the caller is the captain (false when signed out). */
  captain: z.boolean(),
  currency: z.string(),
  members: z.array(
    z.object({
      name: z.string(),
      /** waiting: joined, the captain has not paid yet; held: an order holds the place; confirmed. */
      state: z.enum(['waiting', 'held', 'confirmed']),
    }),
  ),
  /** What the captain's next order costs now (the members waiting), in cents. */
  dueCents: z.number(),
});
export type Team = z.infer<typeof teamSchema>;

export const teamJoinSchema = /* @__PURE__ */ z.object({
  team: teamSchema,
  order: entryOrderSchema.nullable(),
});
export type TeamJoin = z.infer<typeof teamJoinSchema>;

/**
 * The entries' start list (public): each race's confirmed runners with their bib once assigned,
 * their club (a team member's: the team's name) and their team, and the answers to the organiser's
 * questions marked "shown on the start list" as columns. A runner who hides their name (issue 40)
 * shows as the hidden runner, without answers.
 *
 *   GET entries/events/{event}/start-list → EntriesStartList
 */
export const entriesStartListSchema = /* @__PURE__ */ z.object({
  eventId: z.string(),
  eventName: z.string(),
  columns: z.array(z.object({ key: z.string(), label: z.string(), kind: z.enum(questionKinds) })),
  races: z.array(
    z.object({
      raceId: z.string(),
      name: z.string(),
      runners: z.array(
        z.object({
          bib: z.string().nullable(),
          name: z.string(),
          club: z.string(),
          team: z.string().nullable(),
          answers: z.record(z.string(), z.union([z.string(), z.array(z.string()), z.number(), z.boolean()])),
        }),
      ),
    }),
  ),
});
export type EntriesStartList = z.infer<typeof entriesStartListSchema>;
