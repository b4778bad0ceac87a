// Compatibility path for app/routes/results-pages.tsx (the earlier pages); new code imports hooks/use-favorites.ts.
export { readFavorites, toggleFavorite, useFavorites } from './hooks/use-favorites.ts';
