// The payments feature's public entry: the double-entry ledger that every money flow posts to.
export {
  ensureLedgerAccount,
  ledgerAccountBalance,
  postLedgerTransaction,
  type LedgerAccountRef,
  type LedgerEntryInput,
  type LedgerPosting,
  type PostLedgerTransactionOptions,
} from './ledger.ts';
