import { mdiArrowDown, mdiArrowUp } from '@mdi/js';
import { Alert, Box, Button, Chip, IconButton, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CmsNode } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { cmsApi, useCmsPage, useCmsTree } from '../../../features/content/api/cms.ts';
import { useEvent } from '../../../features/content/api/events.ts';
import { CmsTreeNav, firstKey } from '../../../features/content/components/cms-tree-nav.tsx';
import { CmsPageEditor } from '../../../features/content/components/lazy-editors.tsx';
import { useCanManage } from '../../../features/content/use-can-manage.ts';
import { useAuth } from '../../../lib/auth/auth-context.tsx';

const siblingsOf = (root: CmsNode, key: string): { parent: string | null; keys: string[] } | null => {
  const walk = (node: CmsNode, parent: string | null): { parent: string | null; keys: string[] } | null => {
    if (node.Childs.some((c) => c.Id === key)) return { parent, keys: node.Childs.map((c) => c.Id) };
    for (const c of node.Childs) {
      const found = walk(c, c.Id);
      if (found) return found;
    }
    return null;
  };
  return walk(root, null);
};

/** The title of page `key` in the tree (shown while the page itself loads). */
function titleOf(node: CmsNode, key: string, lng: 'en' | 'fr'): string | null {
  if (node.Id === key) return node.Titles[lng];
  for (const child of node.Childs) {
    const found = titleOf(child, key, lng);
    if (found) return found;
  }
  return null;
}

/**
 * `/events/{eventId}/cms/{db}/{key?}` and `/events/{eventId}/ctx/{db}/cms/{path?}`: the tree
 * navigation beside the page, in the interface language. Organisers (CmsPage ability on the
 * event's organisation) see drafts and get new/edit/publish/reorder controls.
 */
export default function CmsPage() {
  const { eventId = '', db = 'main', key: routeKey, path } = useParams();
  const { t, i18n } = useTranslation('content');
  const lng = i18n.language.startsWith('en') ? 'en' : 'fr';
  const navigate = useNavigate();
  const inContext = useLocation().pathname.includes('/ctx/');
  const client = useQueryClient();
  const { status } = useAuth();
  const signedIn = status === 'signedIn';
  const event = useEvent(eventId);
  const tree = useCmsTree(eventId, db, signedIn);
  const key = routeKey ?? path ?? (tree.data ? firstKey(tree.data) : null);
  const page = useCmsPage(eventId, db, key, signedIn);
  const canEdit = useCanManage('CmsPage', event.data?.organisationId);
  const [editor, setEditor] = useState<'new' | 'edit' | null>(null);
  const linkTo = (k: string) => (inContext ? paths.ctxCms(eventId, db, k) : paths.cms(eventId, db, k));
  const invalidate = () => client.invalidateQueries({ queryKey: ['content', 'cms', eventId] });
  const publish = useMutation({
    mutationFn: (published: boolean) => cmsApi.update(eventId, db, key as string, { published }),
    onSuccess: invalidate,
  });
  const move = useMutation({
    mutationFn: (delta: number) => {
      const s = tree.data && key ? siblingsOf(tree.data, key) : null;
      if (!s) throw new Error('not found');
      const keys = [...s.keys];
      const i = keys.indexOf(key as string);
      const j = Math.max(0, Math.min(keys.length - 1, i + delta));
      [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
      return cmsApi.reorder(eventId, db, s.parent, keys);
    },
    onSuccess: invalidate,
  });
  if (tree.isPending) return <PageLoading />;
  if (tree.isError) return <PageError error={tree.error} />;
  const title = page.data?.title[lng] ?? (key && titleOf(tree.data, key, lng)) ?? t('cms.title');
  return (
    <>
      <PageHeader
        title={title}
        documentTitle={`${event.data?.name ?? eventId} · ${page.data?.title[lng] ?? (key && titleOf(tree.data, key, lng)) ?? t('cms.navigation')}`}
        crumbs={[[event.data?.name ?? eventId, paths.eventHome(eventId)], [t('cms.navigation')]]}
        actions={
          canEdit && (
            <Button variant="contained" onClick={() => setEditor('new')}>
              {t('cms.newPage')}
            </Button>
          )
        }
      />
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: '280px 1fr' },
          alignItems: 'start',
        }}
      >
        <Paper variant="outlined" component="nav" aria-label={t('cms.navigation')}>
          {tree.data.Childs.length ? (
            <CmsTreeNav root={tree.data} current={key} linkTo={linkTo} lng={lng} />
          ) : (
            <Typography sx={{ p: 2 }} color="text.secondary">
              {t('cms.empty')}
            </Typography>
          )}
        </Paper>
        <Paper variant="outlined" component="article" sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
          {page.isPending && key && <PageLoading />}
          {page.isError && <PageError error={page.error} />}
          {!key && <Alert severity="info">{t('cms.empty')}</Alert>}
          {page.data && (
            <>
              {canEdit && (
                <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'center' }}>
                  <Chip
                    size="small"
                    color={page.data.published ? 'success' : 'warning'}
                    label={page.data.published ? t('cms.published') : t('cms.draftPreview')}
                  />
                  <Button size="small" onClick={() => setEditor('edit')}>
                    {t('cms.editPage')}
                  </Button>
                  <Button size="small" onClick={() => publish.mutate(!page.data.published)}>
                    {page.data.published ? t('cms.unpublish') : t('cms.publish')}
                  </Button>
                  {/* Native titles, not MUI's Tooltip: its popper is 11 KB of a public page's JS (issue 19). */}
                  <IconButton
                    size="small"
                    aria-label={t('cms.moveUp')}
                    title={t('cms.moveUp')}
                    onClick={() => move.mutate(-1)}
                  >
                    <MdiIcon path={mdiArrowUp} fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('cms.moveDown')}
                    title={t('cms.moveDown')}
                    onClick={() => move.mutate(1)}
                  >
                    <MdiIcon path={mdiArrowDown} fontSize="small" />
                  </IconButton>
                </Stack>
              )}
              <Box
                className="cms-body"
                lang={lng}
                sx={{ '& img': { maxWidth: '100%' }, '& h2': { mt: 0 }, overflowWrap: 'anywhere' }}
                // The server sanitises bodies on output (DOMPurify: no scripts, handlers, styles, frames).
                // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised server-side.
                dangerouslySetInnerHTML={{ __html: page.data.body[lng] }}
              />
            </>
          )}
        </Paper>
      </Box>
      {editor && (
        <CmsPageEditor
          eventId={eventId}
          db={db}
          tree={tree.data}
          {...(editor === 'edit' && page.data ? { page: page.data } : {})}
          onClose={() => setEditor(null)}
          onSaved={(saved) => {
            setEditor(null);
            navigate(linkTo(saved));
          }}
        />
      )}
    </>
  );
}
