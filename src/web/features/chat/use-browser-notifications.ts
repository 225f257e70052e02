import { useCallback, useRef } from 'react';
import { toast } from '#web/lib/toast.ts';
import { BACKGROUND_MESSAGE_TEXT_LENGTH } from '#shared/constants.ts';

/** SPEC.md §7: the text is cut at 50 characters (47 plus "..."). */
export function notificationText(text: string) {
  return text.length > BACKGROUND_MESSAGE_TEXT_LENGTH
    ? `${text.slice(0, BACKGROUND_MESSAGE_TEXT_LENGTH - 3)}...`
    : text;
}

// Once per page load, whichever chat screen asks.
let hasAsked = false;
let hasWarned = false;

/**
 * Browser notifications for messages arriving while the tab is hidden. Permission is asked after the first message
 * sent or received (a moment the user sees why), never on load.
 */
export function useBrowserNotifications() {
  const previous = useRef<Notification | null>(null);

  const askPermission = useCallback(async () => {
    if (typeof Notification === 'undefined' || hasAsked) return;
    hasAsked = true;
    let permission = Notification.permission;
    if (permission === 'default') {
      try {
        permission = await Notification.requestPermission();
      } catch {
        return;
      }
    }
    if (permission === 'denied' && !hasWarned) {
      hasWarned = true;
      toast('Notifications Disabled', {
        description: 'Enable notifications to receive message alerts when the app is in background.',
        duration: 5000,
      });
    }
  }, []);

  const notify = useCallback((title: string, body: string, onClick: () => void) => {
    if (
      typeof Notification === 'undefined' ||
      Notification.permission !== 'granted' ||
      document.visibilityState !== 'hidden'
    )
      return;
    previous.current?.close();
    const notification = new Notification(title, { body: notificationText(body), tag: 'chat-message' });
    notification.onclick = () => {
      window.focus();
      onClick();
      notification.close();
    };
    previous.current = notification;
  }, []);

  return { askPermission, notify };
}
