import type { CSSProperties } from 'react';
import { Toaster as Sonner } from 'sonner';

// Sonner's colours mapped to ours (set through the style prop, i.e. CSSOM, which the CSP allows).
const themeVariables = {
  '--normal-bg': 'var(--popover)',
  '--normal-text': 'var(--popover-foreground)',
  '--normal-border': 'var(--border)',
  '--border-radius': 'var(--radius-lg)',
} as CSSProperties;

/** SPEC.md §9: notices stay until dismissed; the notification area follows the system theme. */
export function Toaster() {
  return (
    <Sonner
      theme="system"
      position="top-right"
      // Below the 64 px top bar, so a notice never hides the menu or the account buttons.
      offset={{ top: 80 }}
      mobileOffset={{ top: 72 }}
      duration={Infinity}
      closeButton
      containerAriaLabel="Notifications"
      style={themeVariables}
      toastOptions={{ classNames: { toast: 'font-sans', description: 'text-muted-foreground', closeButton: 'size-6' } }}
    />
  );
}
