// The payments feature's screens that other features embed: the chat's job bar shows the job's payment state and
// refunds.
export { JobPaymentBadge } from './components/job-payment-badge.tsx';
export { JobRefunds } from './components/job-refunds.tsx';
