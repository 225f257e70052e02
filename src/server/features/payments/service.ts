// The payments feature's public entry: the double-entry ledger that every money flow posts to, each job's money
// state, and the admin's search of the ledger.
export {
  ensureLedgerAccount,
  ledgerAccountBalance,
  postingCentsByKind,
  postLedgerTransaction,
  type LedgerAccountRef,
  type LedgerEntryInput,
  type LedgerPosting,
  type PostLedgerTransactionOptions,
} from './ledger.ts';
export { isJobPaid, jobPaymentState, jobPaymentStates } from './job-payment-state.ts';
export { LEDGER_SEARCH_LIMIT, ledgerCsv, paymentTotals, searchLedger } from './ledger-search.ts';
export { decideRefundRequest } from './refunds.ts';
export { adjustReleasedJob } from './adjustments.ts';
export { adjustmentWork } from './adjustment-work.ts';
export type { RefundContext } from './refund-jobs.ts';
export { refundWork, suspendedTutorsJobsJob, unansweredRefundRequestsJob } from './refund-settlement.ts';
export { getDisputeEvidence, listDisputes } from './refund-views.ts';
export { listChargebacks } from './stripe-disputes.ts';
export { listFailedStripeTransfers, retryStripeTransfer } from './stripe-transfer-retries.ts';
export { stripeTransferWork } from './stripe-transfers.ts';
export {
  cancelCheckout,
  checkoutLapseJob,
  getCheckout,
  lapseCheckouts,
  payCheckout,
  startCheckout,
  type AcceptPaidOffer,
} from './checkouts.ts';
export { deliveredJobsReleaseJob, releaseDeliveredJobs, releaseHeldFunds } from './release.ts';
export {
  confirmAdultForPayouts,
  getEarnings,
  payoutWork,
  recordPayoutPaid,
  requestPayout,
  type Payouts,
} from './earnings.ts';
export { jobCountsTowardTrust } from './trust.ts';
export {
  comparePayments,
  completeThroughRecord,
  paymentListerFor,
  startPaymentReconciliation,
  type CompletablePayment,
  type PaymentLister,
} from './reconciliation.ts';
export { listAwaitingTransfers, listRequestedPayouts, recordTransfer } from './transfers.ts';
export { findDeletionBlock } from './deletion-blocks.ts';
