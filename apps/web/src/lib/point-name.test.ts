import { describe, expect, it } from 'vitest';
import { pointName } from './point-name.ts';

describe('pointName', () => {
  it('reads French where the point has a French name, English otherwise', () => {
    expect(pointName({ name: 'Finish', nameFr: 'Arrivée' }, 'fr')).toBe('Arrivée');
    expect(pointName({ name: 'Finish', nameFr: 'Arrivée' }, 'en')).toBe('Finish');
    expect(pointName({ name: '5K' }, 'fr')).toBe('5K');
    expect(pointName({ name: '5K', nameFr: '' }, 'fr')).toBe('5K');
  });
});
