// biome-ignore-all lint/a11y/useSemanticElements: a virtualised grid — rows are absolutely positioned divs, so ARIA table roles (with aria-rowcount/aria-rowindex) carry the semantics.
// biome-ignore-all lint/a11y/useFocusableInteractive: table rows, headers and cells are not interactive widgets; the scroll container is focusable.
import { mdiStar, mdiStarOutline } from '@mdi/js';
import { type ColumnDef, labelledCell } from '@tempora/contracts';
import { formatDuration, formatGap } from '@tempora/domain';
import i18next from 'i18next';
import { memo, type ReactNode, useEffect, useState } from 'react';

/** Text alignment of a column (spec §3: Center, Right, anything else is left). */
export function alignmentOf(column: Pick<ColumnDef, 'Alignment'>): 'center' | 'right' | 'left' {
  return column.Alignment === 'Center' ? 'center' : column.Alignment === 'Right' ? 'right' : 'left';
}

/**
 * A time cell (spec §5): ms → s, m:ss or h:mm:ss; blank when zero or not a number; decimals from
 * Settings. A gap column (`Settings.Format: 'gap'`) is written by the domain's `formatGap` (`+0:21`).
 */
export function formatTimeCell(value: unknown, decimals = 0, format?: 'gap', lng = 'en'): string {
  if (value === null || value === undefined || value === '') return '';
  const ms = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(ms)) return String(value);
  return format === 'gap' ? formatGap(ms, lng, decimals) : formatDuration(ms, decimals);
}

/** Where a time column's running time was taken (its `Settings.At` field), in `lng`; '' once finished. */
export function timeAt(
  column: Pick<ColumnDef, 'Settings'>,
  row: readonly unknown[],
  lng: 'en' | 'fr',
): string {
  const at = column.Settings.At === undefined ? '' : row[column.Settings.At];
  if (typeof at !== 'string' || !at) return '';
  return String(labelledCell({ Settings: { Labels: 'points', Names: column.Settings.Names } }, at, lng));
}

/** A cell's content alone (no cell element): for the expanded row's details. */
export function CellContent(props: ReportCellProps) {
  return <Content {...props} />;
}

type Sanitizer = typeof import('./sanitize-html.ts');
let sanitizer: Sanitizer | null = null;
let loadingSanitizer: Promise<Sanitizer> | null = null;

/** An html cell (spec §3): shown once the sanitiser has loaded — never unsanitised. */
function HtmlCell({ value }: { value: unknown }) {
  const [ready, setReady] = useState(sanitizer !== null);
  useEffect(() => {
    if (ready) return;
    let live = true;
    loadingSanitizer ??= import('./sanitize-html.ts');
    void loadingSanitizer.then((module) => {
      sanitizer = module;
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [ready]);
  if (!sanitizer) return null;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify (spec §3 html cells).
  return <span dangerouslySetInnerHTML={{ __html: sanitizer.sanitizeCellHtml(value) }} />;
}

/** A regional-indicator emoji for a two-letter country code, else null. */
function emojiFlag(code: string): string | null {
  if (!/^[A-Za-z]{2}$/.test(code)) return null;
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/**
 * A nationality flag, 20 px high (spec §9), from the blob host (spec §7); without a host, or when
 * the picture fails, an emoji (two-letter codes) or the code itself.
 */
function Flag({ code, base }: { code: string; base: string }) {
  const [failed, setFailed] = useState(false);
  if (!base || failed) {
    return (
      <abbr className="rt-flag" title={code}>
        {emojiFlag(code) ?? code}
      </abbr>
    );
  }
  const root = base.endsWith('/') ? base : `${base}/`;
  return (
    <img
      src={`${root}flags/${encodeURIComponent(code)}.png`}
      alt={code}
      title={code}
      height={20}
      loading="lazy"
      style={{ verticalAlign: 'middle', height: 20 }}
      onError={() => setFailed(true)}
    />
  );
}

/** The star's texts from the `results` namespace, for cells used outside a report table. */
export function defaultStarLabel(key: string, pressed: boolean) {
  const label = i18next.t('results:star', { key });
  return { label, title: pressed ? i18next.t('results:unstar', { key }) : label };
}

/** The tracking key in a report row's link to its card (`…/tracking/{key}`), if any. */
export function trackingKeyOfRow(row: readonly unknown[]): string | undefined {
  for (const value of row) {
    if (typeof value !== 'string') continue;
    const m = /\/tracking\/([^/?#]+)$/.exec(value);
    if (m) return decodeURIComponent(m[1]!);
  }
  return undefined;
}

/** What a cell needs. */
export interface ReportCellProps {
  column: ColumnDef;
  row: unknown[];
  keyField: number;
  favorite: boolean;
  onToggleFavorite(key: string, trackingKey?: string): void;
  /** The environment's blob host for flags ('' = none). */
  flagBase: string;
  /** Accessible name and tooltip of a favourite star (tables pass one shared function). */
  starLabel?: (key: string, pressed: boolean) => { label: string; title: string };
  /** Small text shown beneath the value (bib and category under the name on phones). */
  beneath?: ReactNode;
  /** The page's language: status codes show as their label in it (`Settings.Labels`). */
  lng?: 'en' | 'fr';
  /** A narrow column (the rank): a status shows its short form, the full label for screen readers. */
  short?: boolean;
}

function Content({
  column,
  row,
  keyField,
  favorite,
  onToggleFavorite,
  flagBase,
  starLabel,
  lng,
  short,
}: ReportCellProps) {
  const value = row[column.FieldIdx];
  switch (column.Type) {
    case 'time': {
      const language = lng ?? (i18next.language === 'en' ? 'en' : 'fr');
      const text = formatTimeCell(value, column.Settings.Decimals ?? 0, column.Settings.Format, language);
      const at = timeAt(column, row, language);
      // Issue 27: a running time says where it was taken (`1:30:11 · 30 km`).
      return at && text ? (
        <>
          {text}
          <span className="rt-at">{at}</span>
        </>
      ) : (
        text
      );
    }
    case 'html':
      return <HtmlCell value={value} />;
    case 'image':
      return value ? (
        <img src={String(value)} alt="" height={20} loading="lazy" style={{ verticalAlign: 'middle' }} />
      ) : null;
    case 'flag': {
      const code = String(value ?? '');
      return code ? <Flag code={code} base={flagBase} /> : null;
    }
    case 'favorite': {
      const key = String(row[keyField]);
      const { label, title } = (starLabel ?? defaultStarLabel)(key, favorite);
      return (
        <button
          type="button"
          className="rt-star"
          aria-pressed={favorite}
          aria-label={label}
          title={title}
          onClick={() => onToggleFavorite(key, trackingKeyOfRow(row))}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d={favorite ? mdiStar : mdiStarOutline} />
          </svg>
        </button>
      );
    }
    case 'spacer':
      return null;
    default: {
      if (value === null || value === undefined) return null;
      const language = lng ?? (i18next.language === 'en' ? 'en' : 'fr');
      const label = String(labelledCell(column, value, language));
      const abbreviated = short ? String(labelledCell(column, value, language, true)) : label;
      if (abbreviated === label) return <>{label}</>;
      return (
        <span title={label}>
          <span aria-hidden="true">{abbreviated}</span>
          <span className="rt-hidden">{label}</span>
        </span>
      );
    }
  }
}

/** A link of the row (UrlColumnIdx): only http(s), relative and hash links, never `javascript:`. */
function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  return /^\s*(javascript|data|vbscript):/i.test(value) ? null : value;
}

/** One cell of a report table, honouring Bold, Italic, Alignment, Colspan, UrlColumnIdx and Settings.Target. */
export const ReportCell = memo(function ReportCell(props: ReportCellProps) {
  const { column, row, beneath } = props;
  const content = <Content {...props} />;
  const url = column.UrlColumnIdx >= 0 ? safeUrl(row[column.UrlColumnIdx]) : null;
  const target = column.Settings.Target;
  const align = alignmentOf(column);
  return (
    <div
      role="cell"
      aria-colspan={column.Colspan > 1 ? column.Colspan : undefined}
      className={beneath ? 'rt-cell rt-two' : 'rt-cell'}
      data-type={column.Type}
      style={{
        gridColumn: column.Colspan > 1 ? `span ${column.Colspan}` : undefined,
        textAlign: align === 'left' ? undefined : align,
        fontWeight: column.Bold ? 700 : undefined,
        fontStyle: column.Italic ? 'italic' : undefined,
      }}
    >
      {url ? (
        <a
          href={url}
          className="rt-link"
          target={target || undefined}
          rel={target === '_blank' ? 'noopener noreferrer' : undefined}
        >
          {content}
        </a>
      ) : (
        content
      )}
      {beneath}
    </div>
  );
});
