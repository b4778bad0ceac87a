import type { Contact, ContactMessageInput } from '@tempora/contracts';
import type { Sql } from '../../../db/database.ts';

const COLUMNS = 'id, role, name, email, phone, position';

export function listContacts(sql: Sql, eventId: string): Promise<Contact[]> {
  return sql.query<Contact>(`SELECT ${COLUMNS} FROM contacts WHERE event_id = $1 ORDER BY position, name`, [
    eventId,
  ]);
}

export async function findContact(sql: Sql, eventId: string, id: string): Promise<Contact | null> {
  const [row] = await sql.query<Contact>(`SELECT ${COLUMNS} FROM contacts WHERE event_id = $1 AND id = $2`, [
    eventId,
    id,
  ]);
  return row ?? null;
}

export async function insertContact(
  sql: Sql,
  eventId: string,
  c: Omit<Contact, 'id' | 'position'> & { position?: number | undefined },
) {
  const [row] = await sql.query<Contact>(
    `INSERT INTO contacts (event_id, role, name, email, phone, position)
     VALUES ($1, $2, $3, $4, $5, COALESCE($6, (SELECT COALESCE(max(position) + 1, 0) FROM contacts WHERE event_id = $1)))
     RETURNING ${COLUMNS}`,
    [eventId, c.role, c.name, c.email, c.phone, c.position ?? null],
  );
  return row as Contact;
}

export async function updateContact(sql: Sql, eventId: string, id: string, c: Partial<Omit<Contact, 'id'>>) {
  const [row] = await sql.query<Contact>(
    `UPDATE contacts SET role = COALESCE($3, role), name = COALESCE($4, name), email = COALESCE($5, email),
       phone = COALESCE($6, phone), position = COALESCE($7, position)
     WHERE event_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [eventId, id, c.role ?? null, c.name ?? null, c.email ?? null, c.phone ?? null, c.position ?? null],
  );
  return row ?? null;
}

export async function deleteContact(sql: Sql, eventId: string, id: string): Promise<boolean> {
  return (
    (await sql.query('DELETE FROM contacts WHERE event_id = $1 AND id = $2 RETURNING id', [eventId, id]))
      .length > 0
  );
}

export async function insertMessage(sql: Sql, eventId: string, m: ContactMessageInput, ip: string) {
  await sql.query(
    'INSERT INTO contact_messages (event_id, name, email, subject, message, ip) VALUES ($1, $2, $3, $4, $5, $6)',
    [eventId, m.name, m.email, m.subject, m.message, ip],
  );
}

/**
 * Who receives the contact form's messages: the event's first contact with an e-mail, else the
 * owners of its organisation.
 */
export async function messageRecipients(
  sql: Sql,
  eventId: string,
): Promise<{ email: string; lng: 'en' | 'fr' }[]> {
  // Each in the language of their account (issue 41); an address without one gets English.
  const [contact] = await sql.query<{ email: string; lng: 'en' | 'fr' | null }>(
    `SELECT c.email, u.lng FROM contacts c LEFT JOIN users u ON lower(u.email) = lower(c.email)
      WHERE c.event_id = $1 AND c.email <> '' ORDER BY c.position, c.name LIMIT 1`,
    [eventId],
  );
  if (contact) return [{ email: contact.email, lng: contact.lng ?? 'en' }];
  return sql.query<{ email: string; lng: 'en' | 'fr' }>(
    `SELECT u.email, u.lng FROM events e JOIN organisation_members m ON m.organisation_id = e.organisation_id
       JOIN users u ON u.sub = m.user_sub WHERE e.id = $1 AND m.role = 'owner' ORDER BY u.email`,
    [eventId],
  );
}
