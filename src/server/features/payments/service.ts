// The payments feature's public entry: the double-entry ledger that every money flow posts to, and each job's
// money state.
export {
  ensureLedgerAccount,
  ledgerAccountBalance,
  postLedgerTransaction,
  type LedgerAccountRef,
  type LedgerEntryInput,
  type LedgerPosting,
  type PostLedgerTransactionOptions,
} from './ledger.ts';
export { isJobPaid, jobPaymentState, jobPaymentStates } from './job-payment-state.ts';
