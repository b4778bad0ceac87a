import { describe, expect, it } from 'vitest';
import { readCsv } from '../../test/read-csv.ts';
import { importBostonTable } from './boston-import.ts';

const HEADER =
  'Bib,Name,Age,M/F,City,State,Country,Citizen,,5K,10K,15K,20K,Half,25K,30K,35K,40K,Pace,Proj Time,Official Time,Overall,Gender,Division';
const row = (bib: string, splits: string, official: string, ranks = '1,1,1', age = '24') =>
  `${bib},"Kirui, Geoffrey",${age},M,Keringet,,KEN,,,${splits},0:04:57,-,${official},${ranks}`;
const SPLITS = '0:15:25,0:30:28,0:45:44,1:01:15,1:04:35,1:16:59,1:33:01,1:48:19,2:02:53';

describe('importBostonTable', () => {
  it('maps a row to a participant, official ranks and passings whose net times are the file’s', () => {
    const { race, participants, passings, official, issues } = importBostonTable(
      readCsv([HEADER, row('11', SPLITS, '2:09:37')].join('\n')),
    );
    expect(issues).toEqual([]);
    expect(participants[0]).toMatchObject({ bib: '11', firstName: 'Geoffrey', lastName: 'Kirui', age: 24 });
    expect(official[0]).toEqual({ bib: '11', officialTimeMs: 7_777_000, overall: 1, gender: 1, division: 1 });
    // No start read is made up: the runner starts at the gun the organiser gives.
    expect(passings.some((p) => p.pointId === 'start')).toBe(false);
    const finish = passings.find((p) => p.pointId === 'finish')!.timeMs;
    expect(finish - race.gunTime!).toBe(7_777_000);
    expect(passings).toHaveLength(10);
    expect(race).toMatchObject({ name: 'Boston Marathon 2017', date: '2017-04-17' });
    expect(race.categories.map((c) => c.id)).toContain('F80+');
  });

  it('reports malformed rows with their line and goes on; a "-" split is just a missed mat', () => {
    const text = [
      HEADER,
      row('1', SPLITS, '2:09:x7'),
      '2,too,few',
      row('3', SPLITS.replace('0:15:25', '-').replace('0:30:28', '0:3O:28'), '2:10:00'),
      row('4', SPLITS, '2:11:00', '2,2,2', 'old'),
      row('5', SPLITS, '2:12:00', '3,3,3'),
    ].join('\r\n');
    const { participants, passings, issues } = importBostonTable(readCsv(text));
    expect(participants.map((p) => p.bib)).toEqual(['3', '5']);
    expect(issues.map((i) => i.line)).toEqual([2, 3, 4, 5]);
    expect(passings.filter((p) => p.bib === '3')).toHaveLength(8);
  });

  it('takes the race, its date and its waves from the organiser: a wave’s runners start at its gun', () => {
    const gun = Date.UTC(2015, 3, 20, 14);
    const { race, participants, passings } = importBostonTable(
      readCsv([HEADER, row('11', SPLITS, '2:09:37')].join('\n')),
      {
        id: 'boston-2015',
        name: 'Boston Marathon 2015',
        date: '2015-04-20',
        gunTime: gun,
        waves: [{ id: 'W1', startTime: gun + 60_000, firstBib: 1, lastBib: 7999 }],
      },
    );
    expect(race).toMatchObject({ id: 'boston-2015', name: 'Boston Marathon 2015', date: '2015-04-20' });
    expect(race.startType).toBe('waves');
    expect(participants[0]?.wave).toBe('W1');
    expect(passings.find((p) => p.pointId === 'finish')!.timeMs).toBe(gun + 60_000 + 7_777_000);
  });

  it('refuses a file without the expected columns', () => {
    expect(importBostonTable(readCsv('Bib,Name\n1,x')).issues[0]?.message).toMatch(/missing columns: Age/);
  });
});
