import crypto from 'node:crypto';
import type { OrganisationRole } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';

/** What {@link createTestUser} creates. */
export interface TestUserOptions {
  email?: string;
  memberships?: { organisationId: string; role: OrganisationRole }[];
  /** Platform staff (`manage all`). */
  staff?: boolean;
  /** Fills the basic profile so `profileComplete` is true. */
  profileComplete?: boolean;
}

/** A signed-in test user: pass `authorization` as the header of `app.inject()`. */
export interface TestUser {
  sub: string;
  email: string;
  idToken: string;
  /** `Bearer <idToken>` */
  authorization: string;
}

/**
 * Inserts a verified local user (no password: sign in through the token only) with its
 * organisation roles straight into the database, and mints an ID token with the app's own signer,
 * as `POST /api/auth/sign-in` would. The token lives 15 minutes.
 */
export async function createTestUser(app: FastifyInstance, options: TestUserOptions = {}): Promise<TestUser> {
  const email = (options.email ?? `user-${crypto.randomBytes(6).toString('hex')}@example.test`).toLowerCase();
  const profile = options.profileComplete
    ? ['Ada', 'Lovelace', 'F', '1990-12-10', 'GBR']
    : ['', '', null, null, null];
  const rows = await app.database.query<{ sub: string }>(
    `INSERT INTO users (email, email_verified, platform_staff, first_name, last_name, gender, birth_date, nationality)
     VALUES ($1, true, $2, $3, $4, $5, $6, $7) RETURNING sub`,
    [email, options.staff ?? false, ...profile],
  );
  const sub = (rows[0] as { sub: string }).sub;
  for (const m of options.memberships ?? []) {
    await app.database.query(
      'INSERT INTO organisation_members (organisation_id, user_sub, role) VALUES ($1, $2, $3)',
      [m.organisationId, sub, m.role],
    );
  }
  const idToken = await app.identity.signer.sign({ sub, email, emailVerified: true });
  return { sub, email, idToken, authorization: `Bearer ${idToken}` };
}

/** A mail as sent (secrets in clear), recorded by {@link captureMails}. */
export interface SentMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  link?: string;
}

/**
 * Records every mail the app sends from now on, secrets included, through the outbox's
 * in-process observer: the stored outbox masks codes (issue 13), so tests read them here.
 */
export function captureMails(app: FastifyInstance) {
  const sent: SentMail[] = [];
  app.outbox.observe((mail) => sent.push(mail));
  return {
    sent,
    /** The code of the newest action link mailed to `to` (optionally of one mode). */
    lastCode(to: string, mode?: 'verifyEmail' | 'resetPassword'): string {
      const mail = sent.findLast(
        (m) => m.to === to.toLowerCase() && (!mode || m.link?.includes(`mode=${mode}`)),
      );
      const code = mail?.link && /oobCode=([^&]+)/.exec(mail.link)?.[1];
      if (!code) throw new Error(`no code mailed to ${to}`);
      return decodeURIComponent(code);
    },
  };
}
