import { mdiAccountRemove, mdiCloseCircleOutline } from '@mdi/js';
import {
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type OrganisationRole, organisationRoles } from '@tempora/contracts/abilities';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { useAuth } from '../../../lib/auth/auth-context.tsx';
import { dateTimeFormat } from '../../../lib/intl.ts';
import {
  invitationsQuery,
  invite,
  removeMember,
  revokeInvitation,
  setMemberRole,
  useMembers,
} from '../api/organisations.ts';
import { fieldError, SaveError } from './form-state.tsx';

/**
 * Members and invitations of an organisation. Owners change roles, remove members (never the
 * last owner: the server answers LAST_OWNER) and invite by e-mail; the others read the list.
 */
export function MembersPanel({ orgId, manage }: { orgId: string; manage: boolean }) {
  const { t, i18n } = useTranslation('console');
  const client = useQueryClient();
  const { profile } = useAuth();
  const members = useMembers(orgId);
  const invitations = useQuery(invitationsQuery(orgId, manage));
  const refresh = () => client.invalidateQueries({ queryKey: ['console', 'organisation', orgId] });
  const role = useMutation({
    mutationFn: (v: { sub: string; role: OrganisationRole }) => setMemberRole(orgId, v.sub, v.role),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: (sub: string) => removeMember(orgId, sub), onSettled: refresh });
  const revoke = useMutation({ mutationFn: (id: string) => revokeInvitation(orgId, id), onSettled: refresh });
  const [form, setForm] = useState<{ email: string; role: OrganisationRole }>({ email: '', role: 'staff' });
  const send = useMutation({
    mutationFn: () => invite(orgId, { ...form, lng: i18n.language === 'en' ? 'en' : 'fr' }),
    onSuccess: () => {
      setForm((f) => ({ ...f, email: '' }));
      void refresh();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send.mutate();
  };
  const dateFormat = dateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (
    <Stack spacing={2}>
      <SaveError error={role.error ?? remove.error ?? revoke.error} />
      <List aria-label={t('members.title')} dense disablePadding>
        {(members.data ?? []).map((m) => {
          const name = `${m.firstName} ${m.lastName}`.trim();
          return (
            <ListItem
              key={m.sub}
              divider
              sx={{ flexWrap: 'wrap', columnGap: 1, px: 0 }}
              data-testid={`member-${m.email}`}
            >
              <ListItemText
                primary={name || m.email}
                secondary={name ? m.email : undefined}
                sx={{ minWidth: 0, flex: '1 1 160px' }}
                slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
              />
              {manage ? (
                <TextField
                  select
                  size="small"
                  label={t('members.role')}
                  value={m.role}
                  onChange={(e) => role.mutate({ sub: m.sub, role: e.target.value as OrganisationRole })}
                  sx={{ minWidth: 160 }}
                >
                  {organisationRoles.map((r) => (
                    <MenuItem key={r} value={r}>
                      {t(`roles.${r}.name`)}
                    </MenuItem>
                  ))}
                </TextField>
              ) : (
                <Typography color="text.secondary">{t(`roles.${m.role}.name`)}</Typography>
              )}
              {manage && (
                <Tooltip title={t('members.remove')}>
                  <IconButton
                    aria-label={t('members.removeNamed', { name: name || m.email })}
                    onClick={() =>
                      window.confirm(t('members.confirmRemove', { name: name || m.email })) &&
                      remove.mutate(m.sub)
                    }
                    disabled={
                      m.email === profile?.email &&
                      m.role === 'owner' &&
                      members.data?.filter((x) => x.role === 'owner').length === 1
                    }
                  >
                    <MdiIcon path={mdiAccountRemove} />
                  </IconButton>
                </Tooltip>
              )}
            </ListItem>
          );
        })}
      </List>
      {manage && (
        <>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {t('members.invite')}
          </Typography>
          <form onSubmit={submit} noValidate aria-label={t('members.invite')}>
            <SaveError error={send.error} />
            {send.isSuccess && (
              <Typography role="status" color="success.main" sx={{ mb: 1 }}>
                {t('members.sent', { email: send.data.email })}
              </Typography>
            )}
            <Stack spacing={1.5}>
              <TextField
                label={t('members.email')}
                type="email"
                value={form.email}
                onChange={(e) => setForm((f) => ({ ...f, email: e.target.value }))}
                required
                fullWidth
                error={!!fieldError(send.error, 'email')}
                helperText={fieldError(send.error, 'email')}
              />
              <Stack direction="row" spacing={1.5}>
                <TextField
                  select
                  label={t('members.role')}
                  value={form.role}
                  onChange={(e) => setForm((f) => ({ ...f, role: e.target.value as OrganisationRole }))}
                  sx={{ flex: 1 }}
                >
                  {organisationRoles.map((r) => (
                    <MenuItem key={r} value={r}>
                      {t(`roles.${r}.name`)}
                    </MenuItem>
                  ))}
                </TextField>
                <Button
                  type="submit"
                  variant="contained"
                  disabled={send.isPending}
                  sx={{ minHeight: 56, flexShrink: 0 }}
                >
                  {t('members.send')}
                </Button>
              </Stack>
            </Stack>
          </form>
          {(invitations.data?.length ?? 0) > 0 && (
            <List aria-label={t('members.pending')} dense disablePadding>
              {invitations.data!.map((inv) => (
                <ListItem
                  key={inv.id}
                  divider
                  secondaryAction={
                    <Tooltip title={t('members.revoke')}>
                      <IconButton
                        edge="end"
                        aria-label={t('members.revokeFor', { email: inv.email })}
                        onClick={() => revoke.mutate(inv.id)}
                      >
                        <MdiIcon path={mdiCloseCircleOutline} />
                      </IconButton>
                    </Tooltip>
                  }
                >
                  <ListItemText
                    primary={`${inv.email} · ${t(`roles.${inv.role}.name`)}`}
                    secondary={t('members.pendingUntil', {
                      date: dateFormat.format(new Date(inv.expiresAt)),
                    })}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </>
      )}
    </Stack>
  );
}
