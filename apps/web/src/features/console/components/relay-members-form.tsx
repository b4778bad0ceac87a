import { Button, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleRace, RelayMembers } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../../../lib/api-client.ts';
import { fieldError, SaveError } from './form-state.tsx';

/** `PUT console/races/{id}/relay-members` (issue 31). */
const setRelayMembers = (raceId: string, body: RelayMembers) =>
  apiRequest<ConsoleRace>('apiUrlBase', `console/races/${encodeURIComponent(raceId)}/relay-members`, {
    method: 'PUT',
    body,
  });

const textOf = (members: Record<string, string[]>) =>
  Object.entries(members)
    .map(([bib, names]) => [bib, ...names].join('; '))
    .join('\n');

/** One team a line: `bib; leg 1 runner; leg 2 runner; …` (a pair as "A & B"). */
const teamsOf = (text: string): RelayMembers['teams'] =>
  text
    .split('\n')
    .map((line) => line.split(';').map((s) => s.trim()))
    .filter((cells) => cells[0])
    .map(([bib, ...members]) => ({ bib: bib!, members }));

/**
 * A relay's members (issue 31): who runs each leg of each team, one team a line, so that the
 * spectators' leg table names each leg's runner and who is on course.
 */
export function RelayMembersForm({ race, editable }: { race: ConsoleRace; editable: boolean }) {
  const { t } = useTranslation('console');
  const client = useQueryClient();
  const [text, setText] = useState(() => textOf(race.relayMembers ?? {}));
  const save = useMutation({
    mutationFn: (body: RelayMembers) => setRelayMembers(race.id, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['console', 'race', race.id] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const teams = teamsOf(text);
    if (teams.length) save.mutate({ teams });
  };
  const bibError = Object.keys((save.error as { fieldErrors?: object } | null)?.fieldErrors ?? {}).find((k) =>
    k.startsWith('teams.'),
  );
  return (
    <form onSubmit={submit} noValidate aria-label={t('relayMembers.title')}>
      <SaveError error={save.error} />
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {t('relayMembers.help')}
      </Typography>
      <Stack spacing={2}>
        <TextField
          label={t('relayMembers.title')}
          multiline
          minRows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={!editable}
          placeholder={t('relayMembers.placeholder')}
          error={!!bibError}
          helperText={bibError ? fieldError(save.error, bibError) : undefined}
        />
        {editable && (
          <div>
            <Button type="submit" variant="contained" disabled={save.isPending} sx={{ minHeight: 48 }}>
              {t('relayMembers.save')}
            </Button>
          </div>
        )}
      </Stack>
    </form>
  );
}
