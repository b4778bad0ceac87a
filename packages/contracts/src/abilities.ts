import { createMongoAbility, type MongoAbility, type RawRuleOf } from '@casl/ability';
import { z } from 'zod';

// No zod here: the web client's first chunk imports this file (`@tempora/contracts/abilities`).

/**
 * Abilities (spec §6: "kept as the user's abilities"; product.md: CASL rules computed on the
 * server, returned by `permission/get`, enforced by the server on every call). One definition
 * serves both sides: the server builds rules with `rulesFor`, the client renders with them.
 */
export const actions = ['manage', 'create', 'read', 'update', 'delete', 'publish'] as const;
export const subjects = [
  'all',
  'Auth',
  'Profile',
  'Organisation',
  'Event',
  'Race',
  'Participant',
  'Passing',
  'Device',
  'Report',
  'CmsPage',
  'Contact',
  'Stream',
  'Photo',
  'Confirmation',
  'Deposit',
  'Payment',
  'Outbox',
  'PresenceChannel',
  'Pickup',
] as const;
export type Action = (typeof actions)[number];
export type Subject = (typeof subjects)[number];
export type AppAbility = MongoAbility<[Action, Subject | Record<string, unknown>]>;
export type AppRule = RawRuleOf<AppAbility>;

export const organisationRoles = ['owner', 'staff', 'timekeeper', 'pickup'] as const;
export type OrganisationRole = (typeof organisationRoles)[number];

/** What the server knows of a user when computing abilities. */
export interface AbilityUser {
  sub: string;
  email: string;
  /** Platform staff (operators of this Tempora instance). */
  isPlatformStaff: boolean;
  /** The one confirmation account (spec §2, configurable). */
  isConfirmationAccount: boolean;
  memberships: { organisationId: string; role: OrganisationRole }[];
}

/**
 * The rules of a user (or of an anonymous visitor when `user` is null). Organisation-scoped
 * subjects carry `{ organisationId: { $in: [...] } }` conditions: an organiser cannot touch
 * another organisation's event.
 */
/** `GET /api/permission/get`: the caller's ability rules (CASL raw rules). */
export const permissionsAnswerSchema = z.object({
  rules: z.array(z.object({ action: z.union([z.string(), z.array(z.string())]) })),
});

export function rulesFor(user: AbilityUser | null): AppRule[] {
  const rules: AppRule[] = [
    // Draft events (issue 14) are read by their organisation's members only: `$ne` also matches
    // a subject without `visibility`, so checks that do not name it are unchanged.
    { action: 'read', subject: 'Event', conditions: { visibility: { $ne: 'draft' } } },
    { action: 'read', subject: ['Race', 'Report', 'CmsPage', 'Contact', 'Stream', 'Photo'] },
    { action: 'read', subject: 'Auth' },
  ];
  if (!user) return rules;
  // Anyone signed in may found an organisation (and becomes its owner).
  rules.push({ action: 'create', subject: 'Organisation' });
  rules.push({ action: ['read', 'update'], subject: 'Profile', conditions: { sub: user.sub } });
  rules.push({
    action: ['read', 'create', 'update'],
    subject: 'Deposit',
    conditions: { ownerSub: user.sub },
  });
  rules.push({ action: ['read', 'create'], subject: 'Payment', conditions: { ownerSub: user.sub } });
  if (user.isPlatformStaff) {
    rules.push({ action: 'manage', subject: 'all' });
    return rules;
  }
  if (user.isConfirmationAccount) rules.push({ action: 'manage', subject: 'Confirmation' });
  const byRole = (roles: OrganisationRole[]) =>
    user.memberships.filter((m) => roles.includes(m.role)).map((m) => m.organisationId);
  const managed = byRole(['owner', 'staff']);
  const timed = byRole(['owner', 'staff', 'timekeeper']);
  if (managed.length) {
    const inOrgs = { organisationId: { $in: managed } };
    rules.push({
      action: 'manage',
      subject: [
        'Event',
        'Race',
        'Participant',
        'Report',
        'CmsPage',
        'Contact',
        'Stream',
        'Photo',
        'Deposit',
        'Payment',
        'Pickup',
      ],
      conditions: inOrgs,
    });
    // Their events' registration documents (issue 17); not `manage`, which shows the drawer's
    // Confirmation entry to the confirmation account only (spec §2).
    rules.push({ action: ['read', 'create', 'update'], subject: 'Confirmation', conditions: inOrgs });
    rules.push({ action: 'read', subject: 'PresenceChannel', conditions: inOrgs });
  }
  // Pickup volunteers (issue 39) see only what the bib tables need, through the pickup routes:
  // no participant, no console, no organisation (a runner's address or private answers never).
  const pickup = byRole(['pickup']);
  if (pickup.length)
    rules.push({ action: 'manage', subject: 'Pickup', conditions: { organisationId: { $in: pickup } } });
  if (byRole(['owner']).length) {
    rules.push({ action: 'manage', subject: 'Organisation', conditions: { id: { $in: byRole(['owner']) } } });
  }
  if (timed.length) {
    const inOrgs = { organisationId: { $in: timed } };
    rules.push({ action: 'manage', subject: ['Passing', 'Device'], conditions: inOrgs });
    rules.push({ action: 'read', subject: ['Event', 'Race', 'Participant', 'Report'], conditions: inOrgs });
    // Every member sees the organisation, its members and its console (issue 14: the timekeeper
    // reads what the staff set up; only owners manage the organisation and its members).
    rules.push({ action: 'read', subject: 'Organisation', conditions: { id: { $in: timed } } });
  }
  return rules;
}

/** Builds a CASL ability from rules (server: from `rulesFor`; client: from `permission/get`). */
export function abilityFromRules(rules: AppRule[]): AppAbility {
  return createMongoAbility<AppAbility>(rules);
}
