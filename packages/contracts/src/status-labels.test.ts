import { describe, expect, it } from 'vitest';
import { labelledCell } from './status-labels.ts';

describe('labelledCell', () => {
  it('shows a status code as its label in the language', () => {
    const column = { Settings: { Labels: 'status' as const } };
    expect(labelledCell(column, 'DNF', 'fr')).toBe('Abandon');
    expect(labelledCell(column, 'DNF', 'fr', true)).toBe('Ab.');
    expect(labelledCell(column, 'DNF', 'en')).toBe('DNF');
  });

  it('shows a timing point named in English in French from the column’s names (issue 19)', () => {
    const column = {
      Settings: { Labels: 'points' as const, Names: { Finish: 'Arrivée', '2.5 km': '2,5 km' } },
    };
    expect(labelledCell(column, 'Finish', 'fr')).toBe('Arrivée');
    expect(labelledCell(column, '2.5 km', 'fr')).toBe('2,5 km');
    expect(labelledCell(column, 'Finish', 'en')).toBe('Finish');
    expect(labelledCell(column, '5K', 'fr')).toBe('5K');
    // A name that is a key of Object.prototype is not a French name.
    expect(labelledCell(column, 'constructor', 'fr')).toBe('constructor');
  });

  it('leaves other columns as they are', () => {
    expect(labelledCell({ Settings: {} }, 'Finish', 'fr')).toBe('Finish');
    expect(labelledCell({ Settings: { Labels: 'points' as const } }, 3, 'fr')).toBe(3);
  });
});
