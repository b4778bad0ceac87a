import type { AthleteCard } from '@tempora/contracts';
import { isHiddenRunnerName } from '@tempora/contracts';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { runnerName } from '../../lib/runner-name.ts';

/** A runner on the course map: their card and whether this device follows them. */
export interface MapRunner {
  a: AthleteCard;
  fav: boolean;
}

/** A short name for a label on the drawing: "J. Doe". */
export const shortName = (a: AthleteCard) =>
  isHiddenRunnerName(a.athlete.firstName)
    ? runnerName(a.athlete)
    : `${a.athlete.firstName ? `${a.athlete.firstName.slice(0, 1)}. ` : ''}${a.athlete.lastName}`.trim();

/** The colours of the markers (and of the legend's chips). */
export const MARKER_COLOURS = { followed: '#b33a17', leader: '#1f6f99' } as const;

/**
 * One marker of the course map (map-page.tsx): a runner, with their bib, or a pack, with its size
 * ("×3"); a followed runner's name beside it on a white pill, never a clipped bib. A button (an SVG
 * group with its role, focus and keys): `expanded` says whether what it opens — the pack spread
 * on the map, or the panel of its runners — is open.
 */
export function MapMarker({
  x,
  y,
  items,
  width,
  font,
  expanded,
  onToggle,
}: {
  x: number;
  y: number;
  items: MapRunner[];
  /** The drawing's width: names near the right edge go to the left of their marker. */
  width: number;
  font: number;
  expanded: boolean;
  onToggle(): void;
}) {
  const { t } = useTranslation('live');
  const favs = items.filter((m) => m.fav);
  const names = items.map(({ a }) => `${runnerName(a.athlete)} (${a.athlete.bib})`);
  const single = items.length === 1 ? items[0]!.a.athlete.bib : null;
  const name = favs.length
    ? favs.map((m) => shortName(m.a)).join(', ') +
      (items.length > favs.length && favs.length > 0 ? ` +${items.length - favs.length}` : '')
    : null;
  // What the marker shows (the bib or the pack's size, and the followed names): its accessible
  // name starts with it (WCAG 2.5.3, axe's label-content-name-mismatch on the French map, issue 41).
  const shown = [single ?? `×${items.length}`, name].filter(Boolean).join(' ');
  const right = x < width * 0.6;
  const r = single && single.length > 4 ? 19 : 16;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onToggle();
    }
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>; it has the role, focus and keys of one
    <g
      data-testid="map-athlete"
      role="button"
      tabIndex={0}
      aria-label={t('mapMarker', { count: items.length, names: names.join(', '), shown })}
      aria-expanded={expanded}
      onClick={onToggle}
      onKeyDown={onKeyDown}
      style={{ cursor: 'pointer' }}
      className="map-marker"
    >
      {/* A target of at least 44 px on a phone (the drawing is about the screen's width). */}
      <circle cx={x} cy={y} r={22} fill="transparent" data-hit-area="" />
      <circle
        cx={x}
        cy={y}
        r={r}
        fill={favs.length ? MARKER_COLOURS.followed : MARKER_COLOURS.leader}
        stroke={expanded ? '#111' : '#fff'}
        strokeWidth={expanded ? 3 : 2}
      />
      <text x={x} y={y + 4} fontSize={12} fill="#fff" textAnchor="middle" fontWeight={700}>
        {single ?? `×${items.length}`}
      </text>
      {name && (
        // A white pill under the name: readable over the course and its points.
        <rect
          x={right ? x + r + 1 : x - r - 7 - name.length * font * 0.6}
          y={y - font * 0.75}
          width={name.length * font * 0.6 + 6}
          height={font * 1.5}
          rx={4}
          fill="#fff"
          fillOpacity={0.9}
        />
      )}
      {name && (
        <text
          x={right ? x + r + 4 : x - r - 4}
          y={y + 5}
          textAnchor={right ? 'start' : 'end'}
          fontSize={font}
          fontWeight={700}
          fill="#7a240c"
          paintOrder="stroke"
          stroke="#fff"
          strokeWidth={4}
          data-testid="map-followed-name"
        >
          {/* A space first: the marker's text reads "5001 J. Doe" as its name starts (not "5001J. Doe"). */}
          {` ${name}`}
        </text>
      )}
    </g>
  );
}

/**
 * A pack spread on the map (issue 27): a leg from the pack's place to each runner's marker around
 * it, and at the place a small button that gathers the pack again.
 */
export function SpreadMarkers({
  x,
  y,
  spread,
  items,
  width,
  font,
  openBib,
  onRunner,
  onClose,
}: {
  x: number;
  y: number;
  /** The ring (its centre moves inside the drawing near an edge: the gather button goes there,
   * never under a runner's marker; a leg joins it to the pack's own place). */
  spread: { cx: number; cy: number; points: readonly { x: number; y: number }[] };
  items: MapRunner[];
  width: number;
  font: number;
  /** The runner whose panel is open. */
  openBib: string | null;
  onRunner(bib: string): void;
  onClose(): void;
}) {
  const { t } = useTranslation('live');
  const { cx, cy } = spread;
  return (
    <g data-testid="map-spread">
      {(cx !== x || cy !== y) && <line x1={x} y1={y} x2={cx} y2={cy} stroke="#1f3a5f" strokeWidth={2} />}
      {spread.points.map((p, k) => (
        <line
          key={items[k]!.a.athlete.bib}
          x1={cx}
          y1={cy}
          x2={p.x}
          y2={p.y}
          stroke="#1f3a5f"
          strokeWidth={2}
          strokeDasharray="4 3"
        />
      ))}
      {/* biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>; it has the role, focus and keys of one */}
      <g
        role="button"
        tabIndex={0}
        aria-label={t('mapGather', { count: items.length })}
        onClick={onClose}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            onClose();
          }
        }}
        style={{ cursor: 'pointer' }}
        className="map-marker"
        data-testid="map-gather"
      >
        <circle cx={cx} cy={cy} r={22} fill="transparent" data-hit-area="" />
        <circle cx={cx} cy={cy} r={7} fill="#1f3a5f" stroke="#fff" strokeWidth={2} />
      </g>
      {spread.points.map((p, k) => {
        const item = items[k]!;
        return (
          <MapMarker
            key={item.a.athlete.bib}
            x={p.x}
            y={p.y}
            items={[item]}
            width={width}
            font={font}
            expanded={openBib === item.a.athlete.bib}
            onToggle={() => onRunner(item.a.athlete.bib)}
          />
        );
      })}
    </g>
  );
}
