import type { CategoryDef, Gender } from '../results/types.ts';

/** The category templates an organiser generates from (issue 14). */
export const categoryTemplates = ['boston', 'fiveYear', 'masters'] as const;
export type CategoryTemplate = (typeof categoryTemplates)[number];

type Range = readonly [number | undefined, number | undefined];

/** B.A.A. divisions (the Boston Marathon's): 18–34, five-year groups 35–39 … 75–79, then 80+. */
const BOSTON: readonly Range[] = [
  [18, 34],
  ...Array.from({ length: 9 }, (_, k) => [35 + 5 * k, 39 + 5 * k] as const),
  [80, undefined],
];

/** Five-year groups: under 20, 20–24 … 75–79, then 80+. */
const FIVE_YEAR: readonly Range[] = [
  [undefined, 19],
  ...Array.from({ length: 12 }, (_, k) => [20 + 5 * k, 24 + 5 * k] as const),
  [80, undefined],
];

/**
 * World Athletics / WMA masters: seniors under 35, then five-year masters groups from 35 (M35,
 * W35 …) to 85–89 and 90+ (WMA age groups, counted by age on competition day).
 */
const MASTERS: readonly Range[] = [
  [undefined, 34],
  ...Array.from({ length: 11 }, (_, k) => [35 + 5 * k, 39 + 5 * k] as const),
  [90, undefined],
];

const RANGES: Record<CategoryTemplate, readonly Range[]> = {
  boston: BOSTON,
  fiveYear: FIVE_YEAR,
  masters: MASTERS,
};

function label(template: CategoryTemplate, gender: Gender, [min, max]: Range): { id: string; name: string } {
  if (template === 'masters') {
    const letter = gender === 'F' ? 'W' : gender;
    if (min === undefined) return { id: `${gender}SEN`, name: `${letter} Senior` };
    return { id: `${gender}${min}`, name: `${letter}${min}${max === undefined ? '+' : ''}` };
  }
  const span = min === undefined ? `U${(max ?? 0) + 1}` : max === undefined ? `${min}+` : `${min}-${max}`;
  // Ids are URL-safe keys (report keys `CAT-{id}`): `+` becomes `up`.
  return { id: `${gender}${span.replace('+', 'up')}`, name: `${gender} ${span}` };
}

/**
 * Categories of a template for the given genders, each gender's groups in age order (the
 * engine's first match wins, so the order is the organiser's priority).
 */
export function categoriesFromTemplate(
  template: CategoryTemplate,
  genders: readonly Gender[] = ['F', 'M'],
): CategoryDef[] {
  return genders.flatMap((gender) =>
    RANGES[template].map((range) => ({
      ...label(template, gender, range),
      gender,
      ...(range[0] === undefined ? {} : { minAge: range[0] }),
      ...(range[1] === undefined ? {} : { maxAge: range[1] }),
    })),
  );
}

const GENDER_WORDS: Record<'en' | 'fr', Record<Gender, string>> = {
  en: { F: 'Women', M: 'Men', X: 'Non-binary' },
  fr: { F: 'Femmes', M: 'Hommes', X: 'Non-binaires' },
};

/**
 * The name a category's report reads under (issue 29: "Women 20–24", never "CAT-F20-24"): the
 * gender in words and the age range with an en dash, in English and French, for a category whose
 * name is a code (the templates' "F 20-24", "W35", "M80+"); a name the organiser wrote in words
 * ("Espoirs"), or a category without a gender or an age range, is kept as it is.
 */
export function categoryReportName(category: CategoryDef): { en: string; fr: string } {
  const { gender, minAge, maxAge } = category;
  const code = /^[FMXW] ?(U?\d+([-–]\d+|\+)?|SEN|Senior)$/i.test(category.name.trim());
  if (!gender || !code || (minAge === undefined && maxAge === undefined))
    return { en: category.name, fr: category.name };
  const name = (lng: 'en' | 'fr') => {
    const span =
      minAge === undefined
        ? lng === 'en'
          ? `under ${(maxAge ?? 0) + 1}`
          : `moins de ${(maxAge ?? 0) + 1} ans`
        : maxAge === undefined
          ? `${minAge}+`
          : `${minAge}–${maxAge}`;
    return `${GENDER_WORDS[lng][gender]} ${span}`;
  };
  return { en: name('en'), fr: name('fr') };
}
