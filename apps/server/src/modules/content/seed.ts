import type { Database } from '../../db/database.ts';

const DEMO_EVENT_ID = 'demo-city-run';
const DEMO_ORG_ID = '00000000-0000-4000-8000-000000000001';
/** The demo series: `/misc/crac/demo-challenge`. */
export const DEMO_SERIES_ID = 'demo-challenge';

const pages: [
  key: string,
  parent: string | null,
  en: string,
  fr: string,
  bodyEn: string,
  bodyFr: string,
  published: boolean,
][] = [
  [
    'welcome',
    null,
    'Welcome',
    'Bienvenue',
    '<h2>Welcome to the Demo City Run</h2><p>10 km through the heart of Brussels. Follow the runners live on the results pages.</p>',
    '<h2>Bienvenue à la Demo City Run</h2><p>10 km au cœur de Bruxelles. Suivez les coureurs en direct sur les pages de résultats.</p>',
    true,
  ],
  [
    'practical',
    null,
    'Practical information',
    'Infos pratiques',
    '<p>Everything you need on race day.</p>',
    '<p>Tout ce qu’il faut savoir le jour de la course.</p>',
    true,
  ],
  [
    'bib-pickup',
    'practical',
    'Bib pick-up',
    'Retrait des dossards',
    '<p>Bibs are handed out at the Grand-Place from 7:00 to 9:00. Bring an ID.</p>',
    '<p>Les dossards sont remis sur la Grand-Place de 7 h à 9 h. Munissez-vous d’une pièce d’identité.</p>',
    true,
  ],
  [
    'course',
    'practical',
    'Course',
    'Parcours',
    '<p>One flat loop, <strong>measured</strong> and certified. Water at 5 km.</p>',
    '<p>Une boucle plate, <strong>mesurée</strong> et certifiée. Ravitaillement au 5e km.</p>',
    true,
  ],
  [
    'rules',
    null,
    'Rules',
    'Règlement',
    '<ol><li>The bib is worn on the front.</li><li>Headphones are discouraged.</li></ol>',
    '<ol><li>Le dossard se porte sur le devant.</li><li>Les écouteurs sont déconseillés.</li></ol>',
    true,
  ],
  [
    'volunteers',
    null,
    'Volunteers',
    'Bénévoles',
    '<p>Draft: call for volunteers.</p>',
    '<p>Brouillon : appel aux bénévoles.</p>',
    false,
  ],
];

const contacts: [role: string, name: string, email: string, phone: string][] = [
  ['Race director', 'Claire Dubois', 'race@demo-city-run.test', '+32 2 555 01 01'],
  ['Registrations', 'Marc Peeters', 'entries@demo-city-run.test', '+32 2 555 01 02'],
  ['Press', 'Sofia Rossi', 'press@demo-city-run.test', ''],
];

/**
 * Demo content for the demo event (issue 8), when it exists and has no content yet: a CMS tree in
 * both languages (one draft), 3 contacts, a stream on air all day, and a small series. Idempotent.
 */
export async function seedContent(database: Database, today = new Date()): Promise<boolean> {
  return database.transaction(async (sql) => {
    const [event] = await sql.query<{ id: string }>('SELECT id FROM events WHERE id = $1', [DEMO_EVENT_ID]);
    if (!event) return false;
    const [{ count } = { count: 0 }] = await sql.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM cms_pages WHERE event_id = $1',
      [DEMO_EVENT_ID],
    );
    if (count > 0) return false;
    for (const [position, [key, parent, en, fr, bodyEn, bodyFr, published]] of pages.entries()) {
      await sql.query(
        `INSERT INTO cms_pages (event_id, key, parent_key, position, title_en, title_fr, body_en, body_fr, published)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
        [DEMO_EVENT_ID, key, parent, position, en, fr, bodyEn, bodyFr, published],
      );
    }
    for (const [position, [role, name, email, phone]] of contacts.entries()) {
      await sql.query(
        'INSERT INTO contacts (event_id, role, name, email, phone, position) VALUES ($1, $2, $3, $4, $5, $6)',
        [DEMO_EVENT_ID, role, name, email, phone, position],
      );
    }
    const day = today.toISOString().slice(0, 10);
    await sql.query(
      `INSERT INTO streams (event_id, title, kind, url, starts_at, ends_at) VALUES ($1, $2, 'youtube', $3, $4, $5)`,
      [
        DEMO_EVENT_ID,
        'Finish line live',
        'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ',
        `${day}T00:00:00Z`,
        `${day}T23:59:00Z`,
      ],
    );
    await seedSeries(sql, day);
    return true;
  });
}

async function seedSeries(sql: Pick<Database, 'query'>, day: string) {
  const inserted = await sql.query(
    `INSERT INTO series (id, organisation_id, name, points) VALUES ($1, $2, 'Demo Running Challenge', $3)
     ON CONFLICT DO NOTHING RETURNING id`,
    [DEMO_SERIES_ID, DEMO_ORG_ID, [100, 95, 90, 86, 82, 78, 75, 72, 70, 68]],
  );
  if (!inserted.length) return;
  const races: [string, string, string, boolean][] = [
    ['spring-5k', 'Spring 5 km', '2026-03-15', false],
    ['river-10k', 'River 10 km', '2026-04-19', false],
    [DEMO_EVENT_ID, 'Demo City Run', day, true],
  ];
  for (const [position, [key, name, date, live]] of races.entries()) {
    await sql.query(
      'INSERT INTO series_races (series_id, race_key, name, race_date, live, position) VALUES ($1, $2, $3, $4, $5, $6)',
      [DEMO_SERIES_ID, key, name, date, live, position],
    );
  }
  const athletes: [string, string, string][] = [
    ['a1', 'Emma Janssens', 'F'],
    ['a2', 'Lotte Maes', 'F'],
    ['a3', 'Julie Martin', 'F'],
    ['a4', 'Lucas Dupont', 'M'],
    ['a5', 'Noah Willems', 'M'],
    ['a6', 'Arthur Claes', 'M'],
  ];
  const orders: Record<string, string[]> = {
    'spring-5k': ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'],
    'river-10k': ['a2', 'a1', 'a3', 'a5', 'a4', 'a6'],
    [DEMO_EVENT_ID]: ['a1', 'a3', 'a6', 'a4'],
  };
  for (const [raceKey, order] of Object.entries(orders)) {
    const positions = new Map<string, number>();
    for (const key of order) {
      const athlete = athletes.find((a) => a[0] === key) as [string, string, string];
      const position = (positions.get(athlete[2]) ?? 0) + 1;
      positions.set(athlete[2], position);
      await sql.query(
        `INSERT INTO series_results (series_id, race_key, athlete_key, name, category, position)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [DEMO_SERIES_ID, raceKey, athlete[0], athlete[1], athlete[2], position],
      );
    }
  }
}
