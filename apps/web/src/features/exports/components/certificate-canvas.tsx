import { Box } from '@mui/material';
import type { CertificateField, CertificateTemplate } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';

/** Sample values of the designer's preview (the PDF preview uses a real finisher). */
const SAMPLE: Record<CertificateField['kind'], string> = {
  eventName: 'Demo City Run',
  raceName: '10 km',
  date: '31/05/2026',
  name: 'Zoë Ångström',
  bib: '1234',
  category: 'F35',
  club: 'AC Bruxelles',
  netTime: '42:17',
  gunTime: '42:51',
  rankOverall: '128 / 1 200',
  rankGender: '31 / 540',
  rankCategory: '7 / 96',
  pace: '4:14 /km',
  splits: '2.5 km 10:31\n5 km 21:05\n7.5 km 31:40',
  text: '',
  qr: '',
};

const FONTS: Record<CertificateField['font'], { family: string; weight: number }> = {
  sans: { family: '"DejaVu Sans Condensed", "Arial Narrow", sans-serif', weight: 400 },
  sansBold: { family: '"DejaVu Sans Condensed", "Arial Narrow", sans-serif', weight: 700 },
  serif: { family: '"DejaVu Serif", Georgia, serif', weight: 400 },
  serifBold: { family: '"DejaVu Serif", Georgia, serif', weight: 700 },
};

/** What a field shows in the preview, with its label (as the PDF prints it). */
export function sampleText(field: CertificateField, lng: 'en' | 'fr'): string {
  const label = field.label[lng].trim();
  if (field.kind === 'text' || field.kind === 'qr') return label;
  if (field.kind === 'splits') return [label, SAMPLE.splits].filter(Boolean).join('\n');
  return label ? `${label}${lng === 'fr' ? '\u202f:' : ':'} ${SAMPLE[field.kind]}` : SAMPLE[field.kind];
}

/**
 * The page to scale (A4, mm → % of the page), the background image behind, each field at its
 * position; the selected one outlined. Clicking a field selects it.
 */
export function CertificateCanvas(props: {
  template: CertificateTemplate;
  background: string | null;
  lng: 'en' | 'fr';
  selected: number;
  onSelect(index: number): void;
}) {
  const { t } = useTranslation('exports');
  const landscape = props.template.orientation === 'landscape';
  const w = landscape ? 297 : 210;
  const h = landscape ? 210 : 297;
  return (
    <Box
      role="img"
      aria-label={t('designer.canvas')}
      data-testid="certificate-canvas"
      sx={{
        position: 'relative',
        width: '100%',
        aspectRatio: `${w} / ${h}`,
        containerType: 'inline-size',
        bgcolor: '#fff',
        border: 1,
        borderColor: 'divider',
        boxShadow: 2,
        overflow: 'hidden',
        backgroundImage: props.background ? `url(${props.background})` : undefined,
        backgroundSize: '100% 100%',
      }}
    >
      {props.template.fields.map((f, k) => {
        const font = FONTS[f.font];
        const common = {
          position: 'absolute',
          left: `${(f.x / w) * 100}%`,
          top: `${(f.y / h) * 100}%`,
          width: `${(f.width / w) * 100}%`,
          cursor: 'pointer',
          outline: k === props.selected ? '2px dashed #39aade' : 'none',
        } as const;
        if (f.kind === 'qr')
          return (
            <Box
              // biome-ignore lint/suspicious/noArrayIndexKey: a field's place in the template is its identity (no id; edited by index)
              key={k}
              onClick={() => props.onSelect(k)}
              sx={{
                ...common,
                aspectRatio: '1',
                bgcolor: '#222',
                backgroundImage: 'repeating-conic-gradient(#222 0 25%, #fff 0 50%)',
                backgroundSize: '20% 20%',
              }}
            />
          );
        return (
          <Box
            // biome-ignore lint/suspicious/noArrayIndexKey: a field's place in the template is its identity (no id; edited by index)
            key={k}
            onClick={() => props.onSelect(k)}
            sx={{
              ...common,
              color: f.color,
              fontFamily: font.family,
              fontWeight: font.weight,
              // pt → share of the page width (cqw = 1 % of the canvas width).
              fontSize: `${((f.size * 25.4) / 72 / w) * 100}cqw`,
              lineHeight: 1.15,
              textAlign: f.align,
              whiteSpace: 'pre-line',
            }}
          >
            {sampleText(f, props.lng) || '·'}
          </Box>
        );
      })}
    </Box>
  );
}
