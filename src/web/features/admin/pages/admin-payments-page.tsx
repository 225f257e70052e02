import { useSearchParams } from 'react-router';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { BankTransfers } from '../components/bank-transfers.tsx';
import { DisputesQueue } from '../components/disputes-queue.tsx';
import { FailedStripeTransfers } from '../components/failed-stripe-transfers.tsx';
import { LedgerSearch } from '../components/ledger-search.tsx';
import { ReconciliationReport } from '../components/reconciliation-report.tsx';

const TABS = ['ledger', 'disputes', 'reconciliation', 'transfers', 'failed-transfers'] as const;
type Tab = (typeof TABS)[number];
const tabLabels: Record<Tab, string> = {
  ledger: 'Ledger',
  disputes: 'Disputes',
  reconciliation: 'Reconciliation',
  transfers: 'Bank Transfers',
  'failed-transfers': 'Failed Transfers',
};

/** The Payments section: one tab per task, the tab and the ledger search kept in the address. */
export function AdminPaymentsPage() {
  useDocumentTitle('Payments');
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = TABS.find((candidate) => candidate === searchParams.get('tab')) ?? 'ledger';
  const q = searchParams.get('q') ?? '';

  const show = (next: Record<string, string>) => setSearchParams(next);

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Payments" />
      <Tabs value={tab} onValueChange={(value) => show({ tab: value })} className="flex flex-col">
        <TabsList aria-label="Payments">
          {TABS.map((value) => (
            <TabsTrigger key={value} value={value}>
              {tabLabels[value]}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="ledger" className="mt-6">
          <LedgerSearch q={q} onSearch={(next) => show({ tab: 'ledger', q: next })} />
        </TabsContent>
        <TabsContent value="disputes" className="mt-6">
          <DisputesQueue />
        </TabsContent>
        <TabsContent value="reconciliation" className="mt-6">
          <ReconciliationReport />
        </TabsContent>
        <TabsContent value="transfers" className="mt-6">
          <BankTransfers />
        </TabsContent>
        <TabsContent value="failed-transfers" className="mt-6">
          <FailedStripeTransfers />
        </TabsContent>
      </Tabs>
    </div>
  );
}
