import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import { loadOnce } from '#web/lib/load-once.ts';
import { AVAILABILITY_DEBOUNCE_MS } from '#shared/constants.ts';
import type * as AuthSchemas from '#shared/schemas/auth.ts';
import type { Availability } from '#shared/schemas/auth.ts';
import { availabilityQueryKey, availabilityQueryOptions, type AvailabilityField } from '../api.ts';

/** SPEC.md §4: the states of a live availability check. */
export type AvailabilityState = 'idle' | 'checking' | 'available' | 'unavailable' | 'error';

const texts = {
  username: {
    checking: 'Checking username availability...',
    error: 'Error checking username',
    toast: { title: 'Username taken', description: 'Please choose a different username' },
  },
  email: {
    checking: 'Checking email availability...',
    error: 'Error checking email',
    toast: {
      title: 'Email already in use',
      description: 'An account with this email already exists. Please sign in instead.',
    },
  },
} as const;

/** The value as the server will compare it (e-mail addresses are trimmed and lower-cased). */
function normalize(field: AvailabilityField, value: string) {
  return field === 'email' ? value.trim().toLowerCase() : value;
}

// The shared username and e-mail rules come with zod: fetched once someone types, not with the page.
const loadAuthSchemas = loadOnce(() => import('#shared/schemas/auth.ts'));

/** The auth schemas once fetched (null until then); each change of `value` tries again after a failed fetch. */
function useAuthSchemas(value: string) {
  const [schemas, setSchemas] = useState<typeof AuthSchemas | null>(null);
  useEffect(() => {
    if (schemas || !value) return;
    let isCurrent = true;
    loadAuthSchemas().then(
      (loaded) => isCurrent && setSchemas(loaded),
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [schemas, value]);
  return schemas;
}

/**
 * SPEC.md §5: a username is checked once it could be valid (2+ characters of a-z, 0-9), an e-mail
 * once it has an @ and looks like an address. Anything else is the form's own validation message.
 */
function isCheckable(field: AvailabilityField, value: string, schemas: typeof AuthSchemas | null) {
  if (!schemas) return false;
  if (field === 'username') return schemas.usernameSchema.safeParse(value).success;
  return value.includes('@') && schemas.emailSchema.safeParse(value).success;
}

function useDebouncedValue<T>(value: T, delayMs: number) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

type AvailabilityCheck = {
  state: AvailabilityState;
  /** The text to show for the state (the server's for available/unavailable), or null when idle. */
  message: string | null;
  /** Asks the server again, now (on submit). Null when the value is not checkable or the check failed. */
  recheck: () => Promise<Availability | null>;
  /** Records an answer learnt elsewhere (a 409 from registration). */
  markUnavailable: (message: string) => void;
};

/** Live check of a username or e-mail address, debounced 500 ms, with SPEC.md's texts and toasts. */
export function useAvailability(field: AvailabilityField, rawValue: string): AvailabilityCheck {
  const queryClient = useQueryClient();
  const value = normalize(field, rawValue);
  const schemas = useAuthSchemas(value);
  const checkable = isCheckable(field, value, schemas);
  const debounced = useDebouncedValue(value, AVAILABILITY_DEBOUNCE_MS);
  const isSettled = debounced === value;

  const query = useQuery({ ...availabilityQueryOptions(field, debounced), enabled: checkable && isSettled });

  let state: AvailabilityState;
  if (!checkable) state = 'idle';
  else if (!isSettled || (query.isPending && query.fetchStatus === 'fetching')) state = 'checking';
  else if (query.data) state = query.data.available ? 'available' : 'unavailable';
  else if (query.isError) state = 'error';
  else state = 'checking';

  const message =
    state === 'idle'
      ? null
      : state === 'checking'
        ? texts[field].checking
        : state === 'error'
          ? texts[field].error
          : (query.data?.message ?? null);

  // One notice per taken (or uncheckable) value, not one per re-check.
  const toastedValue = useRef<string | null>(null);
  useEffect(() => {
    if ((state !== 'unavailable' && state !== 'error') || toastedValue.current === `${state}:${value}`) return;
    toastedValue.current = `${state}:${value}`;
    if (state === 'unavailable') toast.error(texts[field].toast.title, { description: texts[field].toast.description });
    else toast.error('An error occurred while checking availability');
  }, [state, value, field]);

  const recheck = useCallback(async () => {
    try {
      // Sent before the rules had arrived for a render: they are fetched (or taken from the last fetch) here.
      if (!isCheckable(field, value, schemas ?? (await loadAuthSchemas()))) return null;
      return await queryClient.query({ ...availabilityQueryOptions(field, value), staleTime: 0 });
    } catch {
      return null;
    }
  }, [queryClient, field, value, schemas]);

  const markUnavailable = useCallback(
    (unavailableMessage: string) => {
      queryClient.setQueryData(availabilityQueryKey(field, value), { available: false, message: unavailableMessage });
    },
    [queryClient, field, value],
  );

  return { state, message, recheck, markUnavailable };
}
