// The payments feature's screens that other features embed: the chat's job bar shows the job's refunds.
export { JobRefunds } from './components/job-refunds.tsx';
