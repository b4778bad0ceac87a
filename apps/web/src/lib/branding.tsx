import { createContext, useContext } from 'react';
import { type Branding, brandingFor } from './branding-variants.ts';

/** The branding in use (UI variant `ui`, spec §9). */
export const BrandingContext = createContext<Branding>(brandingFor('acn'));

/** The current branding: product name, accent colour, logo. */
export function useBranding(): Branding {
  return useContext(BrandingContext);
}
