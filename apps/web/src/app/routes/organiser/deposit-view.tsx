import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { depositApi, depositKeys, useDeposit } from '../../../features/deposits/api/deposits.ts';
import { CollectView } from '../../../features/deposits/components/collect-view.tsx';
import { DepositTabs } from '../../../features/deposits/components/deposit-tabs.tsx';
import { JoinCard } from '../../../features/deposits/components/join-card.tsx';
import { MessageView } from '../../../features/deposits/components/message-view.tsx';
import { OverviewView } from '../../../features/deposits/components/overview-view.tsx';
import { PaymentOkView } from '../../../features/deposits/components/paymentok-view.tsx';
import { ApiError } from '../../../lib/api-client.ts';

/** The deposit views of spec §2: `{id}/collect`, `{id}/message`, `{id}/overview`, `{id}/paymentok`. */
export const DEPOSIT_VIEWS = ['collect', 'message', 'overview', 'paymentok'] as const;
type View = (typeof DEPOSIT_VIEWS)[number];

/** One view of deposit `{id}`; `collect?code=` lets someone with the captain's link join first. */
export default function DepositView() {
  useTranslation('deposits');
  const { event = '', id = '' } = useParams();
  const [search] = useSearchParams();
  const code = search.get('code');
  const view = (useLocation().pathname.split('/').pop() ?? 'overview') as View;
  const client = useQueryClient();
  const deposit = useDeposit(id, {
    poll: view === 'paymentok' ? 3000 : undefined,
  });
  if (deposit.isPending) return <PageLoading />;
  if (deposit.isError) {
    // Someone not (yet) in the team gets 404 for the deposit (issue 25: a stranger cannot tell it
    // exists); with the captain's code, the join card is what they came for.
    if (code && deposit.error instanceof ApiError && [403, 404].includes(deposit.error.status)) {
      return (
        <JoinCard
          code={code}
          onJoin={async () => {
            const joined = await depositApi.join(code);
            client.setQueryData(depositKeys.detail(id), joined);
          }}
        />
      );
    }
    return <PageError error={deposit.error} />;
  }
  const d = deposit.data;
  return (
    <>
      <DepositTabs eventId={event} id={id} current={view} />
      {view === 'collect' && <CollectView deposit={d} />}
      {view === 'message' && <MessageView deposit={d} />}
      {view === 'overview' && <OverviewView deposit={d} />}
      {view === 'paymentok' && <PaymentOkView deposit={d} />}
    </>
  );
}
