import { List, ListItemButton, ListItemText } from '@mui/material';
import type { CmsNode } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** The first published page of a tree in display order (the landing page of a CMS). */
export function firstKey(node: CmsNode): string | null {
  for (const child of node.Childs) return child.Id;
  return null;
}

/** The navigation tree (spec §3 nodes) as nested lists; the current page is marked. */
export function CmsTreeNav({
  root,
  current,
  linkTo,
  lng,
}: {
  root: CmsNode;
  current: string | null;
  linkTo: (key: string) => string;
  lng: 'en' | 'fr';
}) {
  const { t } = useTranslation('content');
  const render = (nodes: CmsNode[], depth: number) =>
    nodes.map((node) => (
      <li key={node.Id}>
        <ListItemButton
          component={RouterLink}
          to={linkTo(node.Id)}
          selected={node.Id === current}
          aria-current={node.Id === current ? 'page' : undefined}
          sx={{ pl: 2 + depth * 2 }}
        >
          <ListItemText
            primary={node.Titles[lng]}
            secondary={node.Published ? undefined : t('cms.draft')}
            slotProps={{ primary: { sx: { fontWeight: node.Childs.length ? 600 : 400 } } }}
          />
        </ListItemButton>
        {node.Childs.length > 0 && (
          <List disablePadding dense component="ul">
            {render(node.Childs, depth + 1)}
          </List>
        )}
      </li>
    ));
  return (
    <List component="ul" dense aria-label={t('cms.navigation')} sx={{ p: 0 }}>
      {render(root.Childs, 0)}
    </List>
  );
}
