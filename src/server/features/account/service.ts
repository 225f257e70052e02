// What other features may call: the admins' list of account deletions.
export { listAccountDeletions } from './deletion.ts';
