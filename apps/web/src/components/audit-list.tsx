import { Box, List, ListItem, ListItemText, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/money.ts';

/** One line of an audit trail as a view shows it (the view translates its own actions). */
export interface AuditListItem {
  id: string | number;
  /** ISO 8601. */
  at: string;
  /** Who did it; null or '' for the system (an automatic match, an import job). */
  actor: string | null;
  /** The action, translated. */
  action: string;
  /** Lines under the entry: field changes, amounts, reasons. */
  details?: ReactNode[];
  /** At the end of the line: the desk's undo button, an "undone" mark. */
  end?: ReactNode;
  /** Data attributes for tests and styling (`data-action`). */
  dataAction?: string;
}

/**
 * The one audit trail list (issue 30): participants' history, the race-day desk's log, the
 * payments audit and a confirmation document's history. Newest first as given; times in
 * `timeZone` (the event's) when known, else the browser's.
 */
export function AuditList({
  items,
  label,
  empty,
  timeZone,
  formatTime,
}: {
  items: readonly AuditListItem[];
  /** The list's accessible name. */
  label: string;
  /** Shown instead of an empty list (defaults to "Nothing recorded yet"). */
  empty?: string;
  timeZone?: string | undefined;
  /** Overrides the date-and-time shown (the desk shows a clock). */
  formatTime?: (iso: string) => string;
}) {
  const { t, i18n } = useTranslation();
  if (!items.length)
    return (
      <Typography color="text.secondary" sx={{ py: 1 }}>
        {empty ?? t('auditTrail.empty')}
      </Typography>
    );
  // The one formatter (issue 43): the page language's format, the zone named.
  const when = (iso: string) => (formatTime ? formatTime(iso) : formatDateTime(iso, i18n.language, timeZone));
  return (
    <List dense aria-label={label}>
      {items.map((item) => (
        <ListItem
          key={item.id}
          divider
          data-testid="audit-row"
          data-action={item.dataAction}
          secondaryAction={item.end}
          sx={item.end ? { pr: 14 } : undefined}
        >
          <ListItemText
            primary={item.action}
            secondary={
              <>
                <Box component="time" dateTime={item.at} sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {when(item.at)}
                </Box>
                {' · '}
                {item.actor || t('auditTrail.system')}
                {(item.details ?? []).map((line, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines are static per entry
                  <Box component="span" key={i} sx={{ display: 'block' }}>
                    {line}
                  </Box>
                ))}
              </>
            }
          />
        </ListItem>
      ))}
    </List>
  );
}
