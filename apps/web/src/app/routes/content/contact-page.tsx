import { mdiEmailOutline, mdiPhoneOutline } from '@mdi/js';
import { Box, Card, CardContent, Link, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useContacts } from '../../../features/content/api/contacts.ts';
import { useEvent } from '../../../features/content/api/events.ts';
import { ContactForm } from '../../../features/content/components/contact-form.tsx';

/** `/events/{eventId}/contact` and `/events/{eventId}/ctx/{db}/contacts/{path}`: contacts and the form. */
export default function ContactPage() {
  const { eventId = '' } = useParams();
  const { t } = useTranslation('content');
  const event = useEvent(eventId);
  const contacts = useContacts(eventId);
  return (
    <>
      <PageHeader
        title={t('contact.title')}
        crumbs={[[event.data?.name ?? eventId, paths.eventHome(eventId)], [t('contact.title')]]}
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
            <Card component="li" key={c.id} variant="outlined">
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
        <ContactForm eventId={eventId} />
      </Paper>
    </>
  );
}
