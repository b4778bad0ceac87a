/** UI variants (spec §9 `ui`): `acn` (default) and `cr`, two brandings of Tempora (product.md). */
export const uiVariants = ['acn', 'cr'] as const;
export type UiVariant = (typeof uiVariants)[number];

export interface Branding {
  ui: UiVariant;
  /** The product name shown in the drawer, the top bar and the page title. */
  productName: string;
  /** Light theme primary colour (spec §9: #39aade for the default variant). */
  primary: string;
  /** A darker tone of the primary colour for text on white (contrast ≥ 4.5:1). */
  primaryText: string;
  logo: string;
}

const brandings: Record<UiVariant, Branding> = {
  acn: {
    ui: 'acn',
    productName: 'Tempora',
    primary: '#39aade',
    primaryText: '#0b6a9a',
    logo: '/favicon.svg',
  },
  cr: {
    ui: 'cr',
    productName: 'Tempora Chrono',
    primary: '#d2461e',
    primaryText: '#a3300f',
    logo: '/favicon.svg',
  },
};

/** The variant named by the URL parameter `ui`; anything else is `acn` (spec §9). */
export function pickUiVariant(value: string | null | undefined): UiVariant {
  return value === 'cr' ? 'cr' : 'acn';
}

/** The branding of a variant. */
export function brandingFor(ui: UiVariant): Branding {
  return brandings[ui];
}
