import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names; later Tailwind classes win over earlier conflicting ones. */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/**
 * tailwind-merge builds its tables at its first call, a task's worth of a phone's time: main.tsx has that done in a
 * task of its own before the first render, rather than in the middle of it.
 */
export function prepareClassNames() {
  twMerge('');
}
