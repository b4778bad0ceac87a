import type { Participant } from '@tempora/domain';

/**
 * The demo's fields (issue 6 "Demo"): a marathon and a 10 km of Demo City Run, a few thousand
 * runners with names matching their nationality, clubs, ages and categories, and when each of
 * them crosses each mat. Pure and deterministic (a seeded generator): every node and every
 * restart computes the same runners and the same reads, so posting them twice changes nothing.
 *
 * Finish times follow a log-normal law around realistic medians (marathon: men 3:55, women 4:25;
 * 10 km: 54 and 61 min), slower with age past 35, with a few elite runners in front; runners
 * split positively (first half faster), a few do not start (DNS) or abandon on course (DNF).
 * Bibs follow the seeding (faster runners get lower bibs, as in real corrals) and the start mat
 * is crossed later the further back a runner stands.
 */

/** A timing point of a demo course, with its coordinates for the course map. */
export interface DemoPoint {
  key: string;
  name: string;
  /** French name (decimal comma, Départ / Arrivée); `name` where they read the same. */
  nameFr?: string;
  distanceM: number;
  isStart?: boolean;
  lat: number;
  lon: number;
}

/** A demo runner: the participant as registered, and how they run. */
export interface DemoRunner extends Participant {
  /** Net finish time (ms) they would run. */
  finishMs: number;
  /** Positive split: 0 = even pace; the first half takes (0.5 − fade / 4) of the time. */
  fade: number;
  /** From the gun to their crossing of the start mat (ms). */
  startOffsetMs: number;
  /** Index of the last ranked point they reach (points.length − 1 when they finish). */
  lastPoint: number;
}

/** One read of the demo's simulated decoders, in race time. */
export interface DemoRead {
  id: string;
  chip: string;
  pointKey: string;
  /** Race time − gun (ms). */
  offsetMs: number;
}

export interface DemoRaceSpec {
  db: string;
  contextName: string;
  raceId: string;
  raceName: string;
  distanceM: number;
  runners: number;
  firstBib: number;
  womenShare: number;
  medianMs: { M: number; F: number };
  eliteMs: { M: [number, number]; F: [number, number] };
  /** The time it takes the back of the field to cross the start mat (ms). */
  startSpreadMs: number;
  dnfShare: number;
  seed: number;
  points: DemoPoint[];
}

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Brussels: the 10 km along the canal and the park. */
const TEN_K_POINTS: DemoPoint[] = [
  { key: 'start', name: 'Start', nameFr: 'Départ', distanceM: 0, isStart: true, lat: 50.8467, lon: 4.3525 },
  { key: '2k5', name: '2.5 km', nameFr: '2,5 km', distanceM: 2500, lat: 50.8549, lon: 4.3378 },
  { key: '5k', name: '5 km', distanceM: 5000, lat: 50.8412, lon: 4.3234 },
  { key: '7k5', name: '7.5 km', nameFr: '7,5 km', distanceM: 7500, lat: 50.8336, lon: 4.3512 },
  { key: 'finish', name: 'Finish', nameFr: 'Arrivée', distanceM: 10_000, lat: 50.8443, lon: 4.3617 },
];

/** Brussels: the marathon from the Cinquantenaire through the forest to Tervuren and back. */
const MARATHON_POINTS: DemoPoint[] = [
  { key: 'start', name: 'Start', nameFr: 'Départ', distanceM: 0, isStart: true, lat: 50.8404, lon: 4.3927 },
  { key: '5k', name: '5 km', distanceM: 5000, lat: 50.821, lon: 4.372 },
  { key: '10k', name: '10 km', distanceM: 10_000, lat: 50.803, lon: 4.379 },
  { key: '15k', name: '15 km', distanceM: 15_000, lat: 50.792, lon: 4.405 },
  { key: '20k', name: '20 km', distanceM: 20_000, lat: 50.812, lon: 4.452 },
  { key: 'half', name: '21.1 km', nameFr: '21,1 km', distanceM: 21_097, lat: 50.8185, lon: 4.4555 },
  { key: '25k', name: '25 km', distanceM: 25_000, lat: 50.839, lon: 4.42 },
  { key: '30k', name: '30 km', distanceM: 30_000, lat: 50.866, lon: 4.41 },
  { key: '35k', name: '35 km', distanceM: 35_000, lat: 50.883, lon: 4.37 },
  { key: '40k', name: '40 km', distanceM: 40_000, lat: 50.872, lon: 4.35 },
  { key: 'finish', name: 'Finish', nameFr: 'Arrivée', distanceM: 42_195, lat: 50.8467, lon: 4.3525 },
];

export const DEMO_TEN_K: DemoRaceSpec = {
  db: 'demo-city-run-10k',
  contextName: 'Demo City Run 10 km',
  raceId: 'city-10k',
  raceName: '10 km',
  distanceM: 10_000,
  runners: 1_200,
  firstBib: 101,
  womenShare: 0.48,
  medianMs: { M: 54 * MIN, F: 61 * MIN },
  eliteMs: { M: [28.5 * MIN, 31 * MIN], F: [31.5 * MIN, 35 * MIN] },
  startSpreadMs: 3 * MIN,
  dnfShare: 0.006,
  seed: 42,
  points: TEN_K_POINTS,
};

export const DEMO_MARATHON: DemoRaceSpec = {
  db: 'demo-city-run-marathon',
  contextName: 'Demo City Run Marathon',
  raceId: 'city-marathon',
  raceName: 'Marathon',
  distanceM: 42_195,
  runners: 2_400,
  firstBib: 5001,
  womenShare: 0.34,
  medianMs: { M: 3 * HOUR + 55 * MIN, F: 4 * HOUR + 25 * MIN },
  eliteMs: { M: [2 * HOUR + 6 * MIN, 2 * HOUR + 14 * MIN], F: [2 * HOUR + 21 * MIN, 2 * HOUR + 30 * MIN] },
  startSpreadMs: 6 * MIN,
  dnfShare: 0.02,
  seed: 2017,
  points: MARATHON_POINTS,
};

/**
 * Categories by gender and age on race day (product.md "Race"), named as results lists print them
 * (`F18–34`, `M65+`): short, and the same in every language.
 */
export const DEMO_CATEGORIES = (['F', 'M'] as const).flatMap((gender) => [
  { id: `${gender}18`, name: `${gender}18–34`, gender, minAge: 0, maxAge: 34 },
  { id: `${gender}35`, name: `${gender}35–44`, gender, minAge: 35, maxAge: 44 },
  { id: `${gender}45`, name: `${gender}45–54`, gender, minAge: 45, maxAge: 54 },
  { id: `${gender}55`, name: `${gender}55–64`, gender, minAge: 55, maxAge: 64 },
  { id: `${gender}65`, name: `${gender}65+`, gender, minAge: 65 },
]);

/** Names and clubs per nationality (IOC codes), with the nation's share of the field in ‰. */
const NATIONS: {
  code: string;
  share: number;
  men: string[];
  women: string[];
  last: string[];
  clubs: string[];
}[] = [
  {
    code: 'BEL',
    share: 450,
    men: ['Louis', 'Arthur', 'Noah', 'Jules', 'Victor', 'Lucas', 'Thomas', 'Wout', 'Pieter', 'Maxime'],
    women: ['Emma', 'Olivia', 'Louise', 'Mila', 'Elise', 'Julie', 'Lotte', 'Marie', 'Camille', 'Sarah'],
    last: [
      'Peeters',
      'Janssens',
      'Maes',
      'Jacobs',
      'Mertens',
      'Willems',
      'Claes',
      'Goossens',
      'Wouters',
      'Dubois',
      'Lambert',
      'Dupont',
      'Renard',
      'Lemaire',
      'Michel',
      'Vermeulen',
      'De Smet',
      'Declercq',
    ],
    clubs: ['RC Bruxelles', 'Daring Running', 'AC Waterloo', 'CA Woluwe', 'Les Gazelles', 'Brussels Runners'],
  },
  {
    code: 'FRA',
    share: 120,
    men: ['Hugo', 'Léo', 'Gabriel', 'Raphaël', 'Antoine', 'Julien', 'Nicolas', 'Mathieu'],
    women: ['Chloé', 'Léa', 'Manon', 'Inès', 'Camille', 'Pauline', 'Claire', 'Anaïs'],
    last: ['Martin', 'Bernard', 'Moreau', 'Laurent', 'Girard', 'Roux', 'Fontaine', 'Chevalier', 'Lefèvre'],
    clubs: ['Lille Métropole Athlétisme', 'AC Paris-Joinville'],
  },
  {
    code: 'NED',
    share: 120,
    men: ['Daan', 'Sem', 'Lars', 'Bram', 'Jesse', 'Thijs', 'Ruben'],
    women: ['Sanne', 'Fleur', 'Anouk', 'Lisa', 'Eva', 'Noor', 'Femke'],
    last: ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'Bakker', 'Visser', 'Smit', 'Meijer', 'de Boer'],
    clubs: ['AV Haarlem', 'Rotterdam Atletiek'],
  },
  {
    code: 'GER',
    share: 70,
    men: ['Jonas', 'Felix', 'Leon', 'Paul', 'Lukas', 'Maximilian', 'Tobias'],
    women: ['Lena', 'Hannah', 'Laura', 'Anna', 'Katharina', 'Johanna', 'Lea'],
    last: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Becker', 'Hoffmann', 'Wagner', 'Koch'],
    clubs: ['LG Köln', 'SCC Berlin'],
  },
  {
    code: 'GBR',
    share: 60,
    men: ['Oliver', 'George', 'Harry', 'Jack', 'James', 'William', 'Charlie'],
    women: ['Amelia', 'Isla', 'Emily', 'Sophie', 'Grace', 'Charlotte', 'Lucy'],
    last: ['Smith', 'Jones', 'Taylor', 'Brown', 'Wilson', 'Evans', 'Roberts', 'Walker', 'Wright'],
    clubs: ['Serpentine RC', 'Thames Hare & Hounds'],
  },
  {
    code: 'ITA',
    share: 40,
    men: ['Marco', 'Luca', 'Matteo', 'Alessandro', 'Giovanni', 'Davide'],
    women: ['Giulia', 'Sofia', 'Chiara', 'Francesca', 'Martina', 'Elena'],
    last: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci'],
    clubs: ['Atletica Milano'],
  },
  {
    code: 'ESP',
    share: 40,
    men: ['Javier', 'Pablo', 'Daniel', 'Alejandro', 'Sergio', 'Carlos'],
    women: ['Lucía', 'María', 'Paula', 'Carmen', 'Laura', 'Marta'],
    last: ['García', 'Fernández', 'López', 'Martínez', 'Sánchez', 'Pérez', 'Gómez', 'Ruiz'],
    clubs: ['Club Atletismo Madrid'],
  },
  {
    code: 'USA',
    share: 30,
    men: ['Michael', 'Ryan', 'Tyler', 'Kevin', 'Brian', 'Matthew'],
    women: ['Jessica', 'Ashley', 'Megan', 'Lauren', 'Emily', 'Rachel'],
    last: ['Johnson', 'Williams', 'Miller', 'Davis', 'Anderson', 'Clark', 'Lewis', 'Young'],
    clubs: ['Boston Athletic Association'],
  },
  {
    code: 'POR',
    share: 20,
    men: ['João', 'Tiago', 'Rui', 'Pedro'],
    women: ['Ana', 'Inês', 'Beatriz', 'Mariana'],
    last: ['Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Costa'],
    clubs: [],
  },
  {
    code: 'JPN',
    share: 20,
    men: ['Haruto', 'Yuto', 'Sota', 'Ren', 'Kenji', 'Takumi'],
    women: ['Yui', 'Hina', 'Aoi', 'Sakura', 'Yuki', 'Mio'],
    last: ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura'],
    clubs: [],
  },
  {
    code: 'KEN',
    share: 15,
    men: ['Eliud', 'Geoffrey', 'Wilson', 'Daniel', 'Evans', 'Lawrence'],
    women: ['Brigid', 'Mary', 'Ruth', 'Joyce', 'Peres', 'Vivian'],
    last: ['Kipchoge', 'Kamworor', 'Kiptum', 'Cheruiyot', 'Korir', 'Kosgei', 'Jepchirchir', 'Wanjiru'],
    clubs: ['NN Running Team'],
  },
  {
    code: 'ETH',
    share: 15,
    men: ['Kenenisa', 'Tamirat', 'Birhanu', 'Lelisa', 'Tesfaye'],
    women: ['Tigist', 'Almaz', 'Worknesh', 'Tsehay', 'Ruti'],
    last: ['Bekele', 'Tola', 'Legese', 'Desisa', 'Dibaba', 'Gemechu', 'Abebe', 'Tadesse'],
    clubs: [],
  },
];

/** mulberry32: a small deterministic generator, so every node simulates the same race. */
export function mulberry(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A standard normal draw (Box–Muller). */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function nationOf(random: () => number, elite: boolean) {
  if (elite) {
    const code = random() < 0.5 ? 'KEN' : 'ETH';
    return NATIONS.find((n) => n.code === code)!;
  }
  let left = random() * 1000;
  for (const nation of NATIONS) {
    left -= nation.share;
    if (left < 0) return nation;
  }
  return NATIONS[0]!;
}

/** The runners of a demo race, bibs in seeding order (fastest expected first). */
export function demoRunners(spec: DemoRaceSpec): DemoRunner[] {
  const random = mulberry(spec.seed);
  const ranked = spec.points.length - 2; // index of the finish among ranked points
  const drafts = Array.from({ length: spec.runners }, (_, k) => {
    const gender = random() < spec.womenShare ? ('F' as const) : ('M' as const);
    // Six elite runners per gender at the front of the field.
    const elite = k < 12;
    const nation = nationOf(random, elite);
    const age = elite ? 24 + Math.floor(random() * 10) : 18 + Math.round((random() + random()) * 26);
    let finishMs: number;
    if (elite) {
      const [low, high] = spec.eliteMs[k % 2 === 0 ? 'M' : 'F'];
      finishMs = low + random() * (high - low);
    } else {
      const ageFactor = 1 + Math.max(0, age - 35) * 0.008;
      finishMs = spec.medianMs[gender] * ageFactor * Math.exp(0.16 * normal(random));
      finishMs = Math.max(finishMs, spec.eliteMs[gender][1] * 1.05);
    }
    const status = !elite && random() < 0.02 ? ('DNS' as const) : ('registered' as const);
    const dnf = !elite && random() < spec.dnfShare;
    return {
      gender: elite ? (k % 2 === 0 ? ('M' as const) : ('F' as const)) : gender,
      age,
      nationality: nation.code,
      // Elite runners get distinct names (the k-th man or woman of the list), the field random ones.
      firstName: elite
        ? (k % 2 === 0 ? nation.men : nation.women)[(k >> 1) % 5]!
        : pick(random, gender === 'M' ? nation.men : nation.women),
      lastName: elite ? nation.last[(k >> 1) + (k % 2) * 2]! : pick(random, nation.last),
      club: nation.clubs.length && random() < 0.45 ? pick(random, nation.clubs) : '',
      status,
      finishMs: Math.round(finishMs),
      fade: elite ? random() * 0.02 : random() * 0.12,
      lastPoint: dnf ? Math.floor(random() * ranked) : ranked,
    };
  });
  drafts.sort((a, b) => a.finishMs - b.finishMs);
  return drafts.map((d, k) => {
    const bib = String(spec.firstBib + k);
    return {
      ...d,
      bib,
      chips: [`C${bib.padStart(5, '0')}`],
      startOffsetMs: 2_000 + Math.round((k / spec.runners) * spec.startSpreadMs),
    };
  });
}

/** Net time at distance d of a runner (positive split, see `DemoRunner.fade`). */
function netAt(runner: DemoRunner, d: number, distanceM: number): number {
  const x = d / distanceM;
  return runner.finishMs * (x - runner.fade * x * (1 - x));
}

/** Every read of a demo race, sorted by race time; stable ids make re-posting idempotent. */
export function demoReads(spec: DemoRaceSpec, runners = demoRunners(spec)): DemoRead[] {
  const reads: DemoRead[] = [];
  const ranked = spec.points.filter((p) => !p.isStart);
  const start = spec.points.find((p) => p.isStart);
  for (const r of runners) {
    if (r.status !== 'registered') continue;
    const chip = r.chips![0]!;
    if (start)
      reads.push({ id: `demo-${r.bib}-${start.key}`, chip, pointKey: start.key, offsetMs: r.startOffsetMs });
    ranked.forEach((p, k) => {
      if (k > r.lastPoint) return;
      const offsetMs = r.startOffsetMs + Math.round(netAt(r, p.distanceM, spec.distanceM));
      reads.push({ id: `demo-${r.bib}-${p.key}`, chip, pointKey: p.key, offsetMs });
    });
  }
  return reads.sort((a, b) => a.offsetMs - b.offsetMs);
}
