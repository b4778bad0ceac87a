import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';
import { DeviceForm } from './device-form.tsx';

function renderForm() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <DeviceForm db="ctx" points={[]} onClose={() => {}} />
    </QueryClientProvider>,
  );
}

/** Issue 29: the clock offset typed as a signed h:mm:ss (it was milliseconds), the zone picked. */
describe('DeviceForm', () => {
  beforeAll(() => {
    initI18n('en');
  });

  it('takes a signed h:mm:ss offset, writes it back in one form, and explains a wrong one on its field', async () => {
    for (const lng of ['en', 'fr'] as const) {
      await i18next.changeLanguage(lng);
      const { unmount } = renderForm();
      const offset = screen.getByTestId('device-offset') as HTMLInputElement;
      expect(offset.value).toBe('+0:00:00');
      await userEvent.clear(offset);
      await userEvent.type(offset, '-7200000');
      expect(await screen.findByText(i18next.t('raceday:devices.offsetInvalid'))).toBeTruthy();
      await userEvent.clear(offset);
      await userEvent.type(offset, '\u22122:00');
      await userEvent.tab();
      expect(offset.value).toBe('-2:00:00');
      await userEvent.clear(offset);
      await userEvent.type(offset, '0:00:01,25');
      await userEvent.tab();
      expect(offset.value).toBe('+0:00:01.250');
      expect(screen.queryByText(i18next.t('raceday:devices.offsetInvalid'))).toBeNull();
      unmount();
    }
  });

  it('picks the device time zone from the list of IANA zones', async () => {
    await i18next.changeLanguage('fr');
    renderForm();
    const zone = screen.getByLabelText(i18next.t('raceday:devices.timeZone'));
    await userEvent.type(zone, 'Brussels');
    await userEvent.click(await screen.findByRole('option', { name: 'Europe/Brussels' }));
    expect((zone as HTMLInputElement).value).toBe('Europe/Brussels');
  });
});
