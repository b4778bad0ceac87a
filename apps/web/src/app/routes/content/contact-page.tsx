import { mdiDeleteOutline, mdiEmailOutline, mdiPencilOutline, mdiPhoneOutline } from '@mdi/js';
import { Box, Button, Card, CardContent, IconButton, Link, Paper, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { Contact } from '@tempora/contracts';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { contactsApi, contactsQuery, useContacts } from '../../../features/content/api/contacts.ts';
import { useEvent } from '../../../features/content/api/events.ts';
import { RecordEditor } from '../../../features/content/components/lazy-editors.tsx';
import { useCanManage } from '../../../features/content/use-can-manage.ts';

// The form (text fields, validation) loads after the contacts (issue 19: the first JS of a page).
const ContactForm = lazy(() =>
  import('../../../features/content/components/contact-form.tsx').then((m) => ({ default: m.ContactForm })),
);

/**
 * `/events/{eventId}/contact` and `/events/{eventId}/ctx/{db}/contacts/{path}`: contacts and the
 * form. Organisers of the event add, change and remove contacts.
 */
export default function ContactPage() {
  const { eventId = '' } = useParams();
  const { t } = useTranslation('content');
  const event = useEvent(eventId);
  const contacts = useContacts(eventId);
  const client = useQueryClient();
  const canEdit = useCanManage('Contact', event.data?.organisationId);
  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: contactsQuery(eventId).queryKey });
  const remove = async (c: Contact) => {
    if (!window.confirm(t('contact.confirmDelete', { name: c.name }))) return;
    await contactsApi.remove(eventId, c.id);
    await refresh();
  };
  return (
    <>
      <PageHeader
        title={t('contact.title')}
        documentTitle={`${event.data?.name ?? eventId} · ${t('contact.title')}`}
        crumbs={[[event.data?.name ?? eventId, paths.eventHome(eventId)], [t('contact.title')]]}
        actions={
          canEdit && (
            <Button variant="contained" onClick={() => setEditing('new')}>
              {t('contact.add')}
            </Button>
          )
        }
      />
      {contacts.isPending && <PageLoading />}
      {contacts.isError && <PageError error={contacts.error} />}
      {contacts.data && contacts.data.length > 0 && (
        <Box
          component="ul"
          aria-label={t('contact.contacts')}
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            mb: 3,
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' },
          }}
        >
          {contacts.data.map((c) => (
            <Card component="li" key={c.id} variant="outlined" sx={{ position: 'relative' }}>
              {canEdit && (
                <Box sx={{ position: 'absolute', top: 4, right: 4 }}>
                  <IconButton aria-label={t('contact.edit', { name: c.name })} onClick={() => setEditing(c)}>
                    <MdiIcon path={mdiPencilOutline} fontSize="small" />
                  </IconButton>
                  <IconButton
                    aria-label={t('contact.delete', { name: c.name })}
                    onClick={() => void remove(c)}
                  >
                    <MdiIcon path={mdiDeleteOutline} fontSize="small" />
                  </IconButton>
                </Box>
              )}
              <CardContent>
                <Typography variant="overline" color="text.secondary">
                  {c.role}
                </Typography>
                <Typography variant="h6" component="h2" sx={{ fontSize: 18 }}>
                  {c.name}
                </Typography>
                {c.email && (
                  <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 1 }}>
                    <MdiIcon path={mdiEmailOutline} fontSize="small" aria-hidden />
                    <Link href={`mailto:${c.email}`} sx={{ overflowWrap: 'anywhere' }}>
                      {c.email}
                    </Link>
                  </Box>
                )}
                {c.phone && (
                  <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 0.5 }}>
                    <MdiIcon path={mdiPhoneOutline} fontSize="small" aria-hidden />
                    <Link href={`tel:${c.phone.replace(/[^0-9+]/g, '')}`}>{c.phone}</Link>
                  </Box>
                )}
              </CardContent>
            </Card>
          ))}
        </Box>
      )}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 760 }}>
        <Typography id="contact-form-title" variant="h5" component="h2" sx={{ fontSize: 20, mb: 2 }}>
          {t('contact.write')}
        </Typography>
        <Suspense fallback={<PageLoading />}>
          <ContactForm eventId={eventId} />
        </Suspense>
      </Paper>
      {editing && (
        <RecordEditor
          title={editing === 'new' ? t('contact.add') : t('contact.edit', { name: editing.name })}
          fields={[
            { name: 'role', label: t('contact.fields.role'), required: true },
            { name: 'name', label: t('contact.fields.name'), required: true },
            { name: 'email', label: t('contact.fields.email'), type: 'email' },
            { name: 'phone', label: t('contact.fields.phone'), type: 'tel' },
          ]}
          initial={
            editing === 'new'
              ? { role: '', name: '', email: '', phone: '' }
              : { role: editing.role, name: editing.name, email: editing.email, phone: editing.phone }
          }
          save={(v) => {
            const input = {
              role: v.role ?? '',
              name: v.name ?? '',
              email: v.email ?? '',
              phone: v.phone ?? '',
            };
            return editing === 'new'
              ? contactsApi.create(eventId, input)
              : contactsApi.update(eventId, editing.id, input);
          }}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refresh();
          }}
        />
      )}
    </>
  );
}
