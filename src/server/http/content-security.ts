// The content security policy of every answer: our own origin only, and Stripe's (Stripe.js, its frames for card
// fields and 3-D Secure, its API) only on a server that takes payments through Stripe.

/** The origins Stripe.js needs, as Stripe's security guide lists them. */
const STRIPE_ORIGINS = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
};

export function contentSecurityDirectives({
  inlineScriptHashes,
  https,
  stripe,
}: {
  inlineScriptHashes: string[];
  /** Served over HTTPS: the browser upgrades any plain http:// the page names. */
  https: boolean;
  /** PAYMENTS_PROVIDER=stripe. */
  stripe: boolean;
}) {
  const stripeOrigins = (kind: keyof typeof STRIPE_ORIGINS) => (stripe ? STRIPE_ORIGINS[kind] : []);
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...inlineScriptHashes, ...stripeOrigins('script')],
    // No <style> element is added at run time (see vite.config.ts); style attributes set through the CSSOM are allowed.
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    mediaSrc: ["'self'", 'blob:'],
    // blob: lets the composer read a picked file for its preview.
    connectSrc: ["'self'", 'blob:', ...stripeOrigins('connect')],
    ...(stripe && { frameSrc: STRIPE_ORIGINS.frame }),
    fontSrc: ["'self'", 'data:'],
    // The service worker (/sw.js) and the web app manifest are our own files.
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    formAction: ["'self'"],
    upgradeInsecureRequests: https ? [] : null,
  };
}
