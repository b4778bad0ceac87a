import type { DepositSettings } from '@tempora/contracts';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { fieldErrorsOf } from '../../../lib/field-errors.ts';
import { initI18n } from '../../../lib/i18n.ts';
import { RefundPolicyField } from './refund-policy-field.tsx';

type Policy = DepositSettings['refundPolicy'];
let last: Policy = { kind: 'full' };
function Form({ error = null }: { error?: unknown }) {
  const [policy, setPolicy] = useState<Policy>({ kind: 'full' });
  return (
    <RefundPolicyField
      value={policy}
      onChange={(p) => {
        last = p;
        setPolicy(p);
      }}
      error={error}
    />
  );
}

describe('RefundPolicyField (issue 29: a table of dates and percentages, not typed text)', () => {
  beforeAll(async () => {
    initI18n('fr');
    await i18next.loadNamespaces('payments');
    await i18next.changeLanguage('fr');
  });

  it('edits dates and percentages in rows, and shows a row’s error on its field in French', async () => {
    const error = new ApiError(
      400,
      'VALIDATION_FAILED',
      'Invalid body',
      fieldErrorsOf([
        { field: 'refundPolicy.tiers.1.until', code: 'invalidDate', message: 'Invalid string' },
      ]),
    );
    render(<Form error={error} />);
    await userEvent.click(screen.getByRole('combobox', { name: 'Politique de remboursement' }));
    await userEvent.click(screen.getByRole('option', { name: 'Selon la date' }));
    fireEvent.change(within(screen.getByTestId('refund-tier-0')).getByLabelText("Jusqu'au"), {
      target: { value: '2026-05-01' },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Ajouter une date' }));
    const second = screen.getByTestId('refund-tier-1');
    fireEvent.change(within(second).getByLabelText("Jusqu'au"), { target: { value: '2026-05-15' } });
    await userEvent.clear(within(second).getByLabelText('Remboursé (%)'));
    await userEvent.type(within(second).getByLabelText('Remboursé (%)'), '50');
    expect(last).toEqual({
      kind: 'tiers',
      tiers: [
        { until: '2026-05-01', percent: 100 },
        { until: '2026-05-15', percent: 50 },
      ],
    });
    expect(second.textContent).toContain('Date non valable');
    expect(screen.getByTestId('refund-tier-0').textContent).not.toContain('Date non valable');
    await userEvent.click(
      within(screen.getByTestId('refund-tier-0')).getByRole('button', { name: 'Retirer cette date' }),
    );
    expect(last).toEqual({ kind: 'tiers', tiers: [{ until: '2026-05-15', percent: 50 }] });
  });
});
