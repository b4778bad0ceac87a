import { Alert, Box, Button, TextField, Typography } from '@mui/material';
import type { RegistrationSettingsInput, RegistrationSettingsView } from '@tempora/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useSaveRegistrationSettings } from '../api/entries.ts';
import { problemText } from './errors.ts';

/** The settings as the organiser edits them: the view without its counters. */
function editable(view: RegistrationSettingsView): RegistrationSettingsInput {
  return {
    holdMinutes: view.holdMinutes,
    waitlistMinutes: view.waitlistMinutes,
    payOnSite: view.payOnSite,
    currency: view.currency,
    policy: view.policy,
    races: view.races.map(({ taken: _t, held: _h, ...r }) => r),
    questions: view.questions,
    addOns: view.addOns.map(({ taken: _t, held: _h, ...a }) => a),
    codes: view.codes.map(({ taken: _t, held: _h, ...c }) => c),
    waiver: view.waiver,
  };
}

/**
 * The registration settings of an event (issue 38) as one JSON document the server checks field
 * by field (errors listed under it with their path): races (opening, closing, places, price tiers
 * by date, by age, by member code, age limits, required fields), questions, add-ons with stock,
 * discount codes, the waiver's text (a change is a new version), the hold and the policy.
 */
export function StaffSettings({ eventId, view }: { eventId: string; view: RegistrationSettingsView }) {
  const { t } = useTranslation('entries');
  const save = useSaveRegistrationSettings(eventId);
  const [text, setText] = useState(() => JSON.stringify(editable(view), null, 2));
  const [parseError, setParseError] = useState<string | null>(null);
  useEffect(() => setText(JSON.stringify(editable(view), null, 2)), [view]);
  const fields = save.error instanceof ApiError ? Object.entries(save.error.fieldErrors) : [];
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('staff.settingsHelp')}
      </Typography>
      <TextField
        multiline
        minRows={12}
        maxRows={30}
        fullWidth
        value={text}
        onChange={(e) => setText(e.target.value)}
        slotProps={{
          htmlInput: { 'aria-label': t('staff.settings'), style: { fontFamily: 'monospace', fontSize: 13 } },
        }}
      />
      {parseError && <Alert severity="error">{parseError}</Alert>}
      {save.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {problemText(t, save.error)}
          {fields.map(([f, m]) => (
            <div key={f}>
              {f}: {m.join(', ')}
            </div>
          ))}
        </Alert>
      )}
      {save.isSuccess && (
        <Alert severity="success" sx={{ mt: 1 }}>
          {t('staff.saved')}
        </Alert>
      )}
      <Button
        variant="contained"
        sx={{ mt: 1 }}
        disabled={save.isPending}
        onClick={() => {
          try {
            setParseError(null);
            save.mutate(JSON.parse(text) as RegistrationSettingsInput);
          } catch (error) {
            setParseError((error as Error).message);
          }
        }}
      >
        {t('staff.save')}
      </Button>
    </Box>
  );
}
