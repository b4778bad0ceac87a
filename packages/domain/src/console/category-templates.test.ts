import { describe, expect, it } from 'vitest';
import { checkCategories } from './category-check.ts';
import { categoriesFromTemplate, categoryReportName } from './category-templates.ts';

describe('category templates', () => {
  it('Boston: the B.A.A. divisions 18-34, 35-39 … 75-79, 80+ per gender', () => {
    const men = categoriesFromTemplate('boston', ['M']);
    expect(men.map((c) => c.name)).toEqual([
      'M 18-34',
      'M 35-39',
      'M 40-44',
      'M 45-49',
      'M 50-54',
      'M 55-59',
      'M 60-64',
      'M 65-69',
      'M 70-74',
      'M 75-79',
      'M 80+',
    ]);
    expect(men.at(-1)).toEqual({ id: 'M80up', name: 'M 80+', gender: 'M', minAge: 80 });
  });

  it('five-year groups from under 20 to 80+, ids URL-safe', () => {
    const women = categoriesFromTemplate('fiveYear', ['F']);
    expect(women[0]).toEqual({ id: 'FU20', name: 'F U20', gender: 'F', maxAge: 19 });
    expect(women).toHaveLength(14);
    for (const c of women) expect(c.id).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]*$/);
  });

  it('masters: seniors then W35 … W90+ (WMA five-year groups)', () => {
    const w = categoriesFromTemplate('masters', ['F']);
    expect(w.map((c) => c.name)).toEqual([
      'W Senior',
      'W35',
      'W40',
      'W45',
      'W50',
      'W55',
      'W60',
      'W65',
      'W70',
      'W75',
      'W80',
      'W85',
      'W90+',
    ]);
  });

  it('every template leaves neither overlap nor gap', () => {
    for (const template of ['boston', 'fiveYear', 'masters'] as const) {
      expect(checkCategories(categoriesFromTemplate(template, ['F', 'M', 'X']))).toEqual([]);
    }
  });
});

describe('category check', () => {
  it('reports overlaps (first wins) and gaps per gender, merged into ranges', () => {
    const issues = checkCategories([
      { id: 'A', name: 'A', gender: 'F', minAge: 18, maxAge: 39 },
      { id: 'B', name: 'B', gender: 'F', minAge: 35, maxAge: 49 },
      { id: 'C', name: 'C', gender: 'F', minAge: 60 },
    ]);
    expect(issues).toEqual([
      { kind: 'overlap', gender: 'F', fromAge: 35, toAge: 39, categoryIds: ['A', 'B'] },
      { kind: 'gap', gender: 'F', fromAge: 50, toAge: 59 },
    ]);
  });

  it('a closed oldest group leaves the ages above it uncovered; a gender-less one covers both', () => {
    expect(checkCategories([{ id: 'A', name: 'A', gender: 'M', minAge: 18, maxAge: 99 }])).toEqual([
      { kind: 'gap', gender: 'M', fromAge: 100, toAge: 120 },
    ]);
    const all = checkCategories([
      { id: 'ALL', name: 'Everyone' },
      { id: 'M40', name: 'M40', gender: 'M', minAge: 40 },
    ]);
    expect(all).toEqual([
      { kind: 'overlap', gender: 'M', fromAge: 40, toAge: 120, categoryIds: ['ALL', 'M40'] },
    ]);
  });

  it('flags a min above its max and a repeated id', () => {
    expect(
      checkCategories([
        { id: 'A', name: 'A', minAge: 50, maxAge: 40 },
        { id: 'B', name: 'B', gender: 'F', minAge: 20 },
        { id: 'B', name: 'B2', gender: 'M', minAge: 20 },
      ]),
    ).toEqual([
      { kind: 'invalid', categoryId: 'A' },
      { kind: 'duplicateId', categoryId: 'B' },
    ]);
  });
});

describe('category report names (issue 29)', () => {
  it('reads a coded category in words, in English and French', () => {
    const [under20, f20] = categoriesFromTemplate('fiveYear', ['F']);
    expect(categoryReportName(f20!)).toEqual({ en: 'Women 20–24', fr: 'Femmes 20–24' });
    expect(categoryReportName(under20!)).toEqual({ en: 'Women under 20', fr: 'Femmes moins de 20 ans' });
    const m80 = categoriesFromTemplate('boston', ['M']).at(-1)!;
    expect(categoryReportName(m80)).toEqual({ en: 'Men 80+', fr: 'Hommes 80+' });
    const w35 = categoriesFromTemplate('masters', ['F'])[1]!;
    expect(w35.name).toBe('W35');
    expect(categoryReportName(w35)).toEqual({ en: 'Women 35–39', fr: 'Femmes 35–39' });
  });
  it('keeps a name the organiser wrote in words, and a category without gender or ages', () => {
    expect(categoryReportName({ id: 'ESP', name: 'Espoirs', gender: 'M', minAge: 20, maxAge: 22 })).toEqual({
      en: 'Espoirs',
      fr: 'Espoirs',
    });
    expect(categoryReportName({ id: 'F', name: 'F 20-24', minAge: 20, maxAge: 24 }).en).toBe('F 20-24');
  });
});
