import crypto from 'node:crypto';
import type { OutboxMessage } from '@tempora/contracts';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Database, Sql } from '../db/database.ts';

/** One e-mail to send. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Secrets the mail carries (one-time codes): sent to the recipient, but replaced by
   * {@link MASK} in the stored copy, so neither `dev/outbox` nor a database reader can take over
   * the account (issue 13).
   */
  secrets?: string[];
  /** The action link of the mail, printed on the server console in development. */
  link?: string;
  /**
   * Files sent with the mail (nodemailer's attachments: an entry's QR code, its calendar file);
   * `cid` names an image the HTML shows inline. Not kept in the outbox table (its text is).
   */
  attachments?: { filename: string; content: Buffer | string; contentType: string; cid?: string }[];
}

/** What replaces a secret in the stored copy of a mail. */
export const MASK = '[redacted]';

/** Called with every mail as sent, secrets included: the development console, tests. */
export type MailObserver = (mail: Mail) => void;

/** `app.outbox`: every mail is kept in the outbox table, and sent through SMTP when configured. */
export interface Outbox {
  send(mail: Mail): Promise<void>;
  /** {@link Outbox.send} for many mails: one statement stores them all (followers' alerts). */
  sendMany(mails: readonly Mail[]): Promise<void>;
  /**
   * Stores mails in the caller's transaction (one statement) and returns what sends them once
   * it is committed (observers, SMTP): a mail and what marks it sent (issue 38: an entry's
   * `mailed_at`) are kept together or not at all.
   */
  storeMany(sql: Sql, mails: readonly Mail[]): Promise<() => void>;
  /** The latest messages, newest first (dev/outbox), secrets masked. */
  list(limit?: number): Promise<OutboxMessage[]>;
  /** Registers an in-process observer of every mail sent; returns its removal. */
  observe(observer: MailObserver): () => void;
  /** Waits for SMTP sends still in flight (app close, tests). */
  flush(): Promise<void>;
}

/** Codes in action links, masked again when listing (rows stored before masking existed). */
const LINK_CODE = /(oobCode=)[^&\s"'<>]+/g;

/** The stored form of a text: every secret replaced by {@link MASK}. */
export function maskSecrets(text: string, secrets: string[] = []): string {
  let masked = text;
  for (const secret of secrets) {
    if (!secret) continue;
    masked = masked.split(secret).join(MASK).split(encodeURIComponent(secret)).join(MASK);
  }
  return masked.replace(LINK_CODE, `$1${MASK}`);
}

interface OutboxRow {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: string | Date;
  sent_at: string | Date | null;
}

const iso = (v: string | Date) => new Date(v).toISOString();

/**
 * The outbox. The row is written before sending so a mail server failure loses nothing (the
 * failure is logged, `sent_at` stays null); sending happens after the caller's answer so that
 * forgot-password takes the same time whether or not the account exists.
 */
export function createOutbox(
  database: Database,
  options: { smtpUrl?: string | undefined; from: string; log: FastifyBaseLogger },
): Outbox {
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;
  const pending = new Set<Promise<void>>();
  const observers = new Set<MailObserver>();

  const deliver = async (id: string, mail: Mail) => {
    if (!transport) return;
    try {
      await transport.sendMail({ from: options.from, ...mail });
      await database.query('UPDATE outbox SET sent_at = now() WHERE id = $1', [id]);
    } catch (err) {
      options.log.error({ err, outboxId: id }, 'e-mail not sent; kept in the outbox');
    }
  };

  /** After a mail is stored: the observers, then SMTP behind the caller's answer. */
  const stored = (id: string, mail: Mail) => {
    for (const observer of observers) {
      try {
        observer(mail);
      } catch (err) {
        options.log.error({ err }, 'mail observer failed');
      }
    }
    if (!transport) return;
    const job = deliver(id, mail).finally(() => pending.delete(job));
    pending.add(job);
  };

  /** {@link Outbox.storeMany}. */
  async function storeMany(sql: Sql, mails: readonly Mail[]): Promise<() => void> {
    if (!mails.length) return () => {};
    // The ids made here: each stored row is known as its mail's (SMTP marks it sent).
    const ids = mails.map(() => crypto.randomUUID());
    await sql.query(
      `INSERT INTO outbox (id, recipient, subject, text_body, html_body)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[])`,
      [
        ids,
        mails.map((m) => m.to),
        mails.map((m) => m.subject),
        mails.map((m) => maskSecrets(m.text, m.secrets)),
        mails.map((m) => maskSecrets(m.html, m.secrets)),
      ],
    );
    return () => {
      for (const [k, mail] of mails.entries()) stored(ids[k]!, mail);
    };
  }

  return {
    async send(mail) {
      const rows = await database.query<{ id: string }>(
        'INSERT INTO outbox (recipient, subject, text_body, html_body) VALUES ($1, $2, $3, $4) RETURNING id',
        [mail.to, mail.subject, maskSecrets(mail.text, mail.secrets), maskSecrets(mail.html, mail.secrets)],
      );
      stored((rows[0] as { id: string }).id, mail);
    },
    async sendMany(mails) {
      (await storeMany(database, mails))();
    },
    storeMany,
    async list(limit = 50) {
      const rows = await database.query<OutboxRow>(
        'SELECT * FROM outbox ORDER BY created_at DESC, id LIMIT $1',
        [limit],
      );
      return rows.map((r) => ({
        id: r.id,
        to: r.recipient,
        subject: r.subject,
        text: maskSecrets(r.text_body),
        html: maskSecrets(r.html_body),
        createdAt: iso(r.created_at),
        sentAt: r.sent_at ? iso(r.sent_at) : null,
      }));
    },
    observe(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
    async flush() {
      await Promise.all([...pending]);
      transport?.close();
    },
  };
}
