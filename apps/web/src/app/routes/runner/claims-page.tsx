import { Alert, Button, Stack, Typography } from '@mui/material';
import type { OrganiserClaim } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table.tsx';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { useDecideClaim, useOrganiserClaims } from '../../../features/runner/api/organiser-claims.ts';

/**
 * `/console/events/{eventId}/claims` (issue 40): runners who ask for a result whose entry has no
 * e-mail; the organiser compares the entry with the account and approves or refuses (audited).
 */
export default function ClaimsPage() {
  const { eventId = '' } = useParams();
  const { t } = useTranslation('runner');
  const claims = useOrganiserClaims(eventId);
  const decide = useDecideClaim(eventId);
  if (claims.isPending) return <PageLoading />;
  if (claims.isError) return <PageError error={claims.error} />;
  const columns: DataTableColumn<OrganiserClaim>[] = [
    {
      key: 'entry',
      header: t('claims.entry'),
      cell: (c) => `${c.bib ?? '—'} · ${c.firstName} ${c.lastName} · ${c.birthDate ?? '—'} · ${c.raceName}`,
    },
    {
      key: 'claimant',
      header: t('claims.claimant'),
      cell: (c) => `${c.claimantName} <${c.claimantEmail}> · ${c.claimantBirthDate ?? '—'}`,
    },
    {
      key: 'decide',
      header: t('claims.decision'),
      cell: (c) => (
        <Stack direction="row" spacing={1}>
          <Button
            size="small"
            variant="contained"
            disabled={decide.isPending}
            onClick={() => decide.mutate({ claimId: c.id, approve: true })}
          >
            {t('claims.approve')}
          </Button>
          <Button
            size="small"
            disabled={decide.isPending}
            onClick={() => decide.mutate({ claimId: c.id, approve: false })}
          >
            {t('claims.refuse')}
          </Button>
        </Stack>
      ),
    },
  ];
  return (
    <>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('claims.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('claims.help')}
      </Typography>
      {decide.isError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {t('claimFailed')}
        </Alert>
      )}
      <DataTable
        columns={columns}
        rows={claims.data}
        getRowKey={(c) => c.id}
        label={t('claims.title')}
        empty={t('claims.none')}
        getRowProps={() => ({ 'data-testid': 'organiser-claim' })}
      />
    </>
  );
}
