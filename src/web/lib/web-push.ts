// This browser's Web Push subscription (the service worker's PushManager): what the settings screen turns on and off,
// and what sign-out ends.

export type PushSupport = 'unsupported' | 'denied' | 'default' | 'granted';

/** Whether this browser can receive pushes here, and what the user answered when asked. */
export function pushSupport(): PushSupport {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator) || !('PushManager' in window)) {
    return 'unsupported';
  }
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.permission;
}

/** The service worker's registration, once one is active; null where none is registered (development). */
async function registration() {
  if (pushSupport() === 'unsupported') return null;
  return (await navigator.serviceWorker.getRegistration('/')) ?? null;
}

/** This browser's current push subscription, if any. */
export async function currentPushSubscription() {
  const current = await registration();
  return current ? current.pushManager.getSubscription() : null;
}

const fromBase64Url = (text: string) =>
  Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (character) => character.charCodeAt(0));

/**
 * Asks for permission (the answer is remembered by the browser) and subscribes with the server's VAPID public key.
 * Returns the subscription as the server takes it, or null when permission was not given.
 */
export async function subscribeToPush(publicKey: string) {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return null;
  await navigator.serviceWorker.ready;
  const current = await registration();
  if (!current) throw new Error('The app’s service worker is not running in this browser.');
  const subscription = await current.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: fromBase64Url(publicKey),
  });
  return subscription.toJSON();
}

/** Ends this browser's subscription (the server forgets its row by its own route, or with the session). */
export async function unsubscribeFromPush() {
  const subscription = await currentPushSubscription();
  await subscription?.unsubscribe();
}
