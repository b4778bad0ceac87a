/**
 * A field and its button on one line where both fit whole, else each on its own full-width line
 * (a 390 px phone in French: "Numéro de dossard" beside "Donner ce dossard" was cut).
 */
export const ROW = { display: 'flex', flexWrap: 'wrap', gap: 1 } as const;
export const FIELD = { flex: '1 1 12rem', minWidth: 0 } as const;
export const BUTTON = { flex: '1 0 auto' } as const;
