import type { ConsoleOrganisation, Invitation, Member, OrganisationPatch } from '@tempora/contracts';
import type { OrganisationRole } from '@tempora/contracts/abilities';
import { foldText } from '@tempora/domain';
import type { Sql } from '../../../db/database.ts';

const ORG_COLUMNS = `o.id, o.slug, o.name, o.country, o.contact_email AS "contactEmail",
  jsonb_build_object('name', '', 'address', '', 'vatNumber', '', 'vatRate', null) || o.legal AS legal,
  (SELECT count(*)::int FROM organisation_members m WHERE m.organisation_id = o.id) AS members,
  (SELECT count(*)::int FROM events e WHERE e.organisation_id = o.id) AS events`;

/** The organisations a user belongs to, with their role (all of them for platform staff). */
export async function organisationsOf(
  sql: Sql,
  sub: string,
  everything: boolean,
): Promise<ConsoleOrganisation[]> {
  return sql.query<ConsoleOrganisation>(
    `SELECT ${ORG_COLUMNS}, m.role FROM organisations o
       LEFT JOIN organisation_members m ON m.organisation_id = o.id AND m.user_sub = $1
      WHERE m.user_sub IS NOT NULL OR $2::boolean ORDER BY o.name, o.id`,
    [sub, everything],
  );
}

export async function organisationById(
  sql: Sql,
  id: string,
  sub: string,
): Promise<ConsoleOrganisation | null> {
  const [row] = await sql.query<ConsoleOrganisation>(
    `SELECT ${ORG_COLUMNS}, m.role FROM organisations o
       LEFT JOIN organisation_members m ON m.organisation_id = o.id AND m.user_sub = $2
      WHERE o.id = $1`,
    [id, sub],
  );
  return row ?? null;
}

/** A URL-safe slug from a name, unique among organisations (`-2`, `-3` … when taken). */
export async function freeSlug(sql: Sql, name: string): Promise<string> {
  const base =
    foldText(name.normalize('NFKC'))
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'organisation';
  const taken = new Set(
    (
      await sql.query<{ slug: string }>('SELECT slug FROM organisations WHERE slug = $1 OR slug LIKE $2', [
        base,
        `${base}-%`,
      ])
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let k = 2; ; k++) if (!taken.has(`${base}-${k}`)) return `${base}-${k}`;
}

export async function insertOrganisation(
  sql: Sql,
  input: { slug: string; name: string; country: string; contactEmail: string; ownerSub: string },
): Promise<string> {
  const [row] = await sql.query<{ id: string }>(
    'INSERT INTO organisations (slug, name, country, contact_email) VALUES ($1, $2, $3, $4) RETURNING id',
    [input.slug, input.name, input.country, input.contactEmail],
  );
  const id = row!.id;
  await sql.query(
    `INSERT INTO organisation_members (organisation_id, user_sub, role) VALUES ($1, $2, 'owner')`,
    [id, input.ownerSub],
  );
  return id;
}

export async function updateOrganisation(sql: Sql, id: string, patch: OrganisationPatch): Promise<void> {
  await sql.query(
    `UPDATE organisations SET name = coalesce($2, name), country = coalesce($3, country),
            contact_email = coalesce($4, contact_email), legal = coalesce($5::jsonb, legal) WHERE id = $1`,
    [
      id,
      patch.name ?? null,
      patch.country ?? null,
      patch.contactEmail ?? null,
      patch.legal ? JSON.stringify(patch.legal) : null,
    ],
  );
}

export async function membersOf(sql: Sql, organisationId: string): Promise<Member[]> {
  return sql.query<Member>(
    `SELECT u.sub, u.email, u.first_name AS "firstName", u.last_name AS "lastName", m.role,
            to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS since
       FROM organisation_members m JOIN users u ON u.sub = m.user_sub
      WHERE m.organisation_id = $1 ORDER BY m.created_at, u.email`,
    [organisationId],
  );
}

export async function memberRole(
  sql: Sql,
  organisationId: string,
  sub: string,
): Promise<OrganisationRole | null> {
  const [row] = await sql.query<{ role: OrganisationRole }>(
    'SELECT role FROM organisation_members WHERE organisation_id = $1 AND user_sub = $2',
    [organisationId, sub],
  );
  return row?.role ?? null;
}

/** Owners of an organisation, locked for the rest of the transaction (the last owner stays). */
export async function lockOwners(sql: Sql, organisationId: string): Promise<string[]> {
  const rows = await sql.query<{ sub: string }>(
    `SELECT user_sub AS sub FROM organisation_members WHERE organisation_id = $1 AND role = 'owner' FOR UPDATE`,
    [organisationId],
  );
  return rows.map((r) => r.sub);
}

export async function setRole(sql: Sql, organisationId: string, sub: string, role: OrganisationRole) {
  await sql.query('UPDATE organisation_members SET role = $3 WHERE organisation_id = $1 AND user_sub = $2', [
    organisationId,
    sub,
    role,
  ]);
}

export async function removeMember(sql: Sql, organisationId: string, sub: string) {
  await sql.query('DELETE FROM organisation_members WHERE organisation_id = $1 AND user_sub = $2', [
    organisationId,
    sub,
  ]);
}

const INVITATION_COLUMNS = `i.id, i.email, i.role, u.email AS "invitedBy",
  to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "createdAt",
  to_char(i.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "expiresAt"`;

/** Invitations neither accepted, revoked nor expired. */
export async function pendingInvitations(sql: Sql, organisationId: string): Promise<Invitation[]> {
  return sql.query<Invitation>(
    `SELECT ${INVITATION_COLUMNS} FROM organisation_invitations i LEFT JOIN users u ON u.sub = i.invited_by
      WHERE i.organisation_id = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()
      ORDER BY i.created_at DESC`,
    [organisationId],
  );
}

export async function insertInvitation(
  sql: Sql,
  row: {
    organisationId: string;
    email: string;
    role: OrganisationRole;
    tokenHash: string;
    invitedBy: string;
    days: number;
  },
): Promise<Invitation> {
  const [inserted] = await sql.query<{ id: string }>(
    `INSERT INTO organisation_invitations (organisation_id, email, role, token_hash, invited_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6)) RETURNING id`,
    [row.organisationId, row.email, row.role, row.tokenHash, row.invitedBy, row.days],
  );
  const [invitation] = await sql.query<Invitation>(
    `SELECT ${INVITATION_COLUMNS} FROM organisation_invitations i LEFT JOIN users u ON u.sub = i.invited_by WHERE i.id = $1`,
    [inserted!.id],
  );
  return invitation!;
}

/** Revokes a pending invitation; false when there was none. */
export async function revokeInvitation(sql: Sql, organisationId: string, id: string): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE organisation_invitations SET revoked_at = now()
      WHERE id = $1 AND organisation_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING id`,
    [id, organisationId],
  );
  return rows.length > 0;
}

export interface InvitationRow {
  id: string;
  organisationId: string;
  organisationName: string;
  email: string;
  role: OrganisationRole;
  expiresAt: string;
  expired: boolean;
  acceptedAt: string | null;
  revokedAt: string | null;
}

export async function invitationByTokenHash(
  sql: Sql,
  tokenHash: string,
  lock = false,
): Promise<InvitationRow | null> {
  const [row] = await sql.query<InvitationRow>(
    `SELECT i.id, i.organisation_id AS "organisationId", o.name AS "organisationName", i.email, i.role,
            to_char(i.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "expiresAt",
            i.expires_at <= now() AS expired, i.accepted_at::text AS "acceptedAt", i.revoked_at::text AS "revokedAt"
       FROM organisation_invitations i JOIN organisations o ON o.id = i.organisation_id
      WHERE i.token_hash = $1${lock ? ' FOR UPDATE OF i' : ''}`,
    [tokenHash],
  );
  return row ?? null;
}

export async function markAccepted(sql: Sql, id: string, sub: string) {
  await sql.query('UPDATE organisation_invitations SET accepted_at = now(), accepted_by = $2 WHERE id = $1', [
    id,
    sub,
  ]);
}

/** Adds a member, or changes the role of one already there to the invited one. */
export async function upsertMember(sql: Sql, organisationId: string, sub: string, role: OrganisationRole) {
  await sql.query(
    `INSERT INTO organisation_members (organisation_id, user_sub, role) VALUES ($1, $2, $3)
     ON CONFLICT (organisation_id, user_sub) DO UPDATE SET role = EXCLUDED.role`,
    [organisationId, sub, role],
  );
}
