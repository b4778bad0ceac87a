import type { MyData, MyResult } from '@tempora/contracts';
import { flatLabels, interpolate, type LabelLng } from '@tempora/contracts/locales';
import { formatDuration } from '@tempora/domain';
import type { Sql } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import { registerFonts } from '../../lib/pdf-fonts.ts';

type Row = Record<string, unknown>;

const rows = async (sql: Sql, text: string, params: unknown[]): Promise<Row[]> =>
  (await sql.query<{ row: Row }>(text, params)).map((r) => r.row);

/**
 * "Download my data" (issue 40, GDPR article 15): everything Tempora holds about one account,
 * read table by table. Secrets are left out (password hash, claim code hashes, push keys,
 * unsubscribe tokens), and so is what is other people's (the addresses of my followers: only
 * their count). `results` are my results as My results shows them (times and ranks).
 */
export async function collectMyData(sql: Sql, sub: string, results: readonly MyResult[]): Promise<MyData> {
  const [account] = await rows(
    sql,
    `SELECT to_jsonb(u) - 'password_hash' - 'external_key' AS row FROM users u WHERE u.sub = $1`,
    [sub],
  );
  if (!account) throw errors.unauthorized();
  const email = String(account.email);
  const memberships = await rows(
    sql,
    `SELECT jsonb_build_object('organisation', o.name, 'role', m.role, 'since', m.created_at) AS row
       FROM organisation_members m JOIN organisations o ON o.id = m.organisation_id WHERE m.user_sub = $1
      ORDER BY o.name`,
    [sub],
  );
  const entries = await rows(
    sql,
    `SELECT to_jsonb(e) || jsonb_build_object('eventName', ev.name, 'raceName', r.name) AS row
       FROM registration_entries e JOIN events ev ON ev.id = e.event_id LEFT JOIN races r ON r.id = e.race_id
      WHERE e.account_sub = $1 OR (e.email <> '' AND lower(e.email) = lower($2)) ORDER BY e.created_at`,
    [sub, email],
  );
  const orderIds = await sql.query<{ id: string }>(
    `SELECT DISTINCT o.id::text AS id FROM orders o
      WHERE o.payer_sub = $1
         OR o.id IN (SELECT e.order_id FROM registration_entries e
                      WHERE e.order_id IS NOT NULL AND (e.account_sub = $1 OR (e.email <> '' AND lower(e.email) = lower($2))))`,
    [sub, email],
  );
  const ids = orderIds.map((o) => o.id);
  const orders = await rows(
    sql,
    `SELECT to_jsonb(o) || jsonb_build_object('eventName', ev.name) AS row
       FROM orders o JOIN events ev ON ev.id = o.event_id WHERE o.id = ANY($1::bigint[]) ORDER BY o.id`,
    [ids],
  );
  const payments = await rows(
    sql,
    'SELECT to_jsonb(p) AS row FROM payments p WHERE p.order_id = ANY($1::bigint[]) ORDER BY p.id',
    [ids],
  );
  const refunds = await rows(
    sql,
    `SELECT to_jsonb(f) - 'created_by' AS row FROM refunds f WHERE f.order_id = ANY($1::bigint[]) ORDER BY f.id`,
    [ids],
  );
  const claims = await rows(
    sql,
    `SELECT jsonb_build_object('id', k.id, 'participantId', k.participant_id, 'method', k.method,
            'status', k.status, 'createdAt', k.created_at, 'decidedAt', k.decided_at,
            'eventName', ev.name, 'raceName', r.name, 'bib', p.bib) AS row
       FROM runner_claims k JOIN participants p ON p.id = k.participant_id JOIN races r ON r.id = p.race_id
       JOIN contexts c ON c.db = r.db JOIN events ev ON ev.id = c.event_id
      WHERE k.account_id = $1 ORDER BY k.created_at`,
    [sub],
  );
  const follows = await rows(
    sql,
    `SELECT jsonb_build_object('trackingKey', s.tracking_key, 'channel', s.channel, 'email', s.email,
            'points', s.points, 'language', s.lng, 'active', s.active, 'createdAt', s.created_at,
            'runner', trim(coalesce(CASE WHEN p.name_hidden THEN NULL ELSE p.first_name || ' ' || p.last_name END, '')),
            'emailConfirmedAt', a.confirmed_at) AS row
       FROM alert_subscriptions s LEFT JOIN participants p ON p.tracking_key = s.tracking_key
       LEFT JOIN alert_emails a ON a.email = s.email
      WHERE s.email IS NOT NULL AND lower(s.email) = lower($1) ORDER BY s.created_at`,
    [email],
  );
  const keys = results.map((r) => r.trackingKey);
  const [about] = await sql.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM alert_subscriptions WHERE tracking_key = ANY($1::text[]) AND active',
    [keys],
  );
  const groupDeposits = await rows(
    sql,
    `SELECT jsonb_build_object('deposit', d.id, 'team', d.organisation_name, 'eventName', ev.name,
            'captain', d.captain_sub = $1, 'state', d.state, 'joinedAt', m.joined_at) AS row
       FROM deposits d JOIN events ev ON ev.id = d.event_id
       LEFT JOIN deposit_members m ON m.deposit_id = d.id AND m.user_sub = $1
      WHERE d.captain_sub = $1 OR m.user_sub = $1 ORDER BY d.id`,
    [sub],
  );
  const teams = await rows(
    sql,
    `SELECT jsonb_build_object('team', t.name, 'eventName', ev.name, 'raceName', r.name, 'captain', t.captain_sub = $1,
            'pays', t.pays, 'joinedAt', m.created_at, 'entry', m.entry_code, 'runner', m.runner) AS row
       FROM registration_teams t JOIN events ev ON ev.id = t.event_id JOIN races r ON r.id = t.race_id
       LEFT JOIN registration_team_members m ON m.team_id = t.id AND (m.account_sub = $1 OR lower(m.email) = lower($2))
      WHERE t.captain_sub = $1 OR m.id IS NOT NULL ORDER BY t.id`,
    [sub, email],
  );
  const waitlists = await rows(
    sql,
    `SELECT to_jsonb(w) - 'token' || jsonb_build_object('raceName', r.name) AS row
       FROM registration_waitlist w JOIN races r ON r.id = w.race_id
      WHERE w.account_sub = $1 OR lower(w.email) = lower($2) ORDER BY w.created_at`,
    [sub, email],
  );
  const mails = await rows(
    sql,
    `SELECT jsonb_build_object('subject', m.subject, 'createdAt', m.created_at, 'sentAt', m.sent_at) AS row
       FROM outbox m WHERE lower(m.recipient) = lower($1) ORDER BY m.created_at`,
    [email],
  );
  const participantIds = results.map((r) => r.participantId);
  const codes = entries.map((e) => String(e.code));
  const audit = await rows(
    sql,
    `SELECT jsonb_build_object('subject', a.subject, 'subjectId', a.subject_id, 'action', a.action,
            'eventId', a.event_id, 'byMe', a.actor_sub = $1::text, 'detail', a.detail, 'at', a.at) AS row
       FROM audit_trail a
      WHERE a.actor_sub = $1::text
         OR (a.subject = 'participant' AND a.subject_id = ANY($2::text[]))
         OR (a.subject = 'entry' AND a.subject_id = ANY($3::text[]))
         OR (a.subject = 'payment' AND a.subject_id = ANY($4::text[]))
      ORDER BY a.at, a.id LIMIT 5000`,
    [sub, participantIds, codes, ids],
  );
  return {
    generatedAt: new Date().toISOString(),
    account,
    memberships,
    consents: {
      emailVerified: account.email_verified,
      hideResults: account.hide_results,
      publicProfile: account.public_profile,
      publicSlug: account.public_slug,
      alertsAboutMeOff: account.alerts_off,
      waivers: entries
        .filter((e) => e.waiver_accepted_at)
        .map((e) => ({ entry: e.code, version: e.waiver_version, acceptedAt: e.waiver_accepted_at })),
    },
    results: results.map((r) => ({ ...r })),
    entries,
    orders,
    payments,
    refunds,
    claims,
    follows,
    alertsAboutMe: { subscriptions: about?.n ?? 0 },
    groupDeposits,
    teams,
    waitlists,
    mails,
    audit,
  };
}

const SECTIONS = [
  'memberships',
  'results',
  'entries',
  'orders',
  'payments',
  'refunds',
  'claims',
  'follows',
  'groupDeposits',
  'teams',
  'waitlists',
  'mails',
  'audit',
] as const;

/** A value as one line of text (objects as compact JSON). */
function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The readable lines of one result. */
function resultLine(r: Row): string {
  const time = typeof r.netMs === 'number' ? formatDuration(r.netMs) : '—';
  const rank = r.rankOverall ?? '—';
  return `${r.date} · ${r.eventName} · ${r.raceName} · ${r.bib ?? '—'} · ${r.status} · ${time} · #${rank}`;
}

/**
 * The same data as a readable PDF (the project's pdfkit and DejaVu fonts, like receipts and
 * certificates), in the reader's language: one heading per section, each row's fields as
 * `name: value` lines; results as one line each.
 */
export async function myDataPdf(data: MyData, lng: LabelLng): Promise<Buffer> {
  const words = flatLabels('mydata', lng) as Record<string, string>;
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: words.title } });
    registerFonts(doc, ['sans', 'sansBold']);
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const heading = (text: string) => {
      doc.moveDown(0.8).font('sansBold').fontSize(13).fillColor('#000').text(text);
      doc.moveDown(0.2).font('sans').fontSize(9).fillColor('#222');
    };
    // Nested objects (an entry's details, an audit line's detail) as `details.firstName: …` lines.
    const fields = (row: Row, prefix = '') => {
      for (const [key, value] of Object.entries(row)) {
        if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length)
          fields(value as Row, `${prefix}${key}.`);
        else doc.text(`${prefix}${key}: ${show(value)}`, { width: 495 });
      }
    };
    doc
      .font('sansBold')
      .fontSize(20)
      .text(words.title ?? 'Tempora');
    doc
      .moveDown(0.3)
      .font('sans')
      .fontSize(10)
      .fillColor('#444')
      .text(interpolate(words.intro ?? '', { date: data.generatedAt.slice(0, 10) }));
    heading(words.account ?? 'Account');
    fields(data.account);
    heading(words.consents ?? 'Consents');
    fields(data.consents);
    for (const section of SECTIONS) {
      heading(words[section] ?? section);
      const list = data[section] as Row[];
      if (!list.length) doc.text(words.none ?? '—');
      list.forEach((row, i) => {
        if (section === 'results') doc.text(resultLine(row), { width: 495 });
        else {
          if (i > 0) doc.moveDown(0.3);
          fields(row);
        }
      });
    }
    heading(words.alertsAboutMe ?? 'Alerts about me');
    doc.text(String(data.alertsAboutMe.subscriptions));
    doc.end();
  });
}
