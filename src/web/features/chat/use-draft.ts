import { useEffect, useEffectEvent, useRef } from 'react';
import { deviceDb } from '#web/lib/device-db.ts';

/** The key of a person's draft to one receiver (drafts are personal: device-db.ts clears them at sign-out). */
export const draftKey = (userId: string, receiverId: string) => `${userId}:${receiverId}`;

/**
 * Keeps the composer's unsent text on the device, per conversation, so that it survives leaving the conversation and
 * reloading: the kept draft is put back when the composer opens with nothing typed, and each change is written at
 * once (an empty text deletes it). Writes to one store run in the order they were made.
 */
export function useDraft(key: string | undefined, text: string, restore: (draft: string) => void) {
  const restoreDraft = useEffectEvent(restore);
  useEffect(() => {
    if (!key) return;
    let isCurrent = true;
    deviceDb
      .get<string>('drafts', key)
      .then((draft) => {
        if (isCurrent && draft) restoreDraft(draft);
      })
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [key]);

  const written = useRef(text);
  useEffect(() => {
    if (!key || text === written.current) return;
    written.current = text;
    const write = text ? deviceDb.put('drafts', key, text) : deviceDb.delete('drafts', key);
    write.catch(() => undefined);
  }, [key, text]);
}
