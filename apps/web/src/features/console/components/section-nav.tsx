import { Box, Link } from '@mui/material';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';

export interface NavSection {
  id: string;
  title: string;
}

/** Under the sticky app bar (56 px on a phone, 64 px from `sm`) and this nav's own row on a phone. */
export const SECTION_SCROLL_MARGIN = { xs: '120px', md: '80px' };

/**
 * Scrolls to the section named by the route's hash (`#/console/events/e/races/r#race-points`) once
 * `ready` (the page's data loaded, so the section exists), and again whenever the hash changes;
 * the section's heading takes the focus, so a keyboard or screen-reader user lands there too.
 */
export function useScrollToSection(ready: boolean) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!ready || !hash) return;
    const section = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!section) return;
    section.scrollIntoView({ block: 'start' });
    const heading = section.querySelector<HTMLElement>('h3');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }, [ready, hash]);
}

/**
 * An in-page table of contents (issue 29: the race page was one 4,200 px page, 6,900 px on a phone):
 * a sticky column beside the sections from `md`, a sticky row of links that scrolls sideways on a
 * phone. Each link is a deep link (`…/races/{raceId}#{sectionId}`) through the hash route.
 */
export function SectionNav({ sections }: { sections: readonly NavSection[] }) {
  const { t } = useTranslation('console');
  const { hash } = useLocation();
  const current = hash.slice(1);
  return (
    <Box
      component="nav"
      aria-label={t('sections.label')}
      sx={{
        position: 'sticky',
        top: { xs: 56, sm: 64 },
        zIndex: 3,
        alignSelf: 'flex-start',
        bgcolor: 'background.default',
        width: { xs: '100%', md: 200 },
        flexShrink: 0,
        py: { xs: 0.5, md: 0 },
      }}
    >
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          display: 'flex',
          flexDirection: { xs: 'row', md: 'column' },
          gap: { xs: 0.5, md: 0.25 },
          overflowX: { xs: 'auto', md: 'visible' },
          whiteSpace: { xs: 'nowrap', md: 'normal' },
        }}
      >
        {sections.map((s) => (
          <li key={s.id}>
            <Link
              component={RouterLink}
              to={{ hash: s.id }}
              aria-current={current === s.id ? 'location' : undefined}
              underline="hover"
              sx={{
                display: 'block',
                px: 1.25,
                py: { xs: 1, md: 0.75 },
                minHeight: 44,
                boxSizing: 'border-box',
                borderRadius: 1,
                fontWeight: current === s.id ? 700 : 400,
                bgcolor: current === s.id ? 'action.selected' : 'transparent',
                lineHeight: 1.6,
              }}
            >
              {s.title}
            </Link>
          </li>
        ))}
      </Box>
    </Box>
  );
}
