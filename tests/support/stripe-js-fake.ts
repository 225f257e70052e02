import type { Page, Route } from '@playwright/test';
import type { StripeFake } from './stripe-fake.ts';

// Stripe's browser side for the journeys, which may not reach the network: the page's requests to js.stripe.com,
// api.stripe.com and hooks.stripe.com are answered here (Playwright's page.route), so the page loads "Stripe.js" from
// its real address under the real content security policy. The fake Stripe.js has the part of the API the checkout
// uses (docs/decisions/0052): `Stripe(key)`, `elements({ clientSecret, appearance })`, a Payment Element in a frame
// from js.stripe.com, and `confirmPayment`, which confirms with the publishable key at the HTTP fake of the API
// (tests/support/stripe-fake.ts); that fake charges the card and sends the signed webhook to the app, or asks for
// 3-D Secure on a bank's page at hooks.stripe.com that returns to the checkout.

const PAYMENT_ELEMENT_PATH = '/fake/payment-element.html';

/** window.Stripe, as the served script defines it: runs in the page, so it names nothing from this module. */
function defineStripe() {
  type Handler = (event: unknown) => void;
  type StripeErrorBody = { type: string; code?: string; message: string };
  const scope = window as unknown as { Stripe: unknown };
  const notInFake = () => {
    throw new Error('The fake Stripe.js does not have this method');
  };

  scope.Stripe = (publishableKey: string) => {
    let frame: HTMLIFrameElement | null = null;
    let clientSecret = '';
    let appearance: unknown = {};
    const handlers = new Map<string, Set<Handler>>();
    const emit = (name: string, event: unknown) => handlers.get(name)?.forEach((handler) => handler(event));
    const onFrameMessage = (event: MessageEvent) => {
      if (event.origin === 'https://js.stripe.com' && event.source === frame?.contentWindow && event.data === 'ready') {
        emit('ready', { elementType: 'payment' });
      }
    };
    const showAppearance = () => frame?.contentWindow?.postMessage({ appearance }, 'https://js.stripe.com');

    /** The card the holder typed in the element's frame, asked for over a private channel. */
    const typedCard = () =>
      new Promise<{ number: string; expiry: string; cvc: string }>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data as { number: string; expiry: string; cvc: string });
        frame?.contentWindow?.postMessage('card', 'https://js.stripe.com', [channel.port2]);
      });

    const paymentElement = {
      mount(node: HTMLElement) {
        frame = document.createElement('iframe');
        frame.src = 'https://js.stripe.com/fake/payment-element.html';
        frame.title = 'Secure payment input frame';
        // Through the CSSOM, as Stripe.js does: a strict style-src refuses style attributes but not this.
        Object.assign(frame.style, { width: '100%', height: '9.5rem', border: '0', display: 'block' });
        frame.addEventListener('load', showAppearance);
        window.addEventListener('message', onFrameMessage);
        node.append(frame);
      },
      on(name: string, handler: Handler) {
        handlers.set(name, (handlers.get(name) ?? new Set()).add(handler));
        return paymentElement;
      },
      off(name: string, handler: Handler) {
        handlers.get(name)?.delete(handler);
        return paymentElement;
      },
      update() {},
      unmount() {},
      destroy() {
        window.removeEventListener('message', onFrameMessage);
        frame?.remove();
        frame = null;
      },
    };

    return {
      _registerWrapper() {},
      registerAppInfo() {},
      createToken: notInFake,
      createPaymentMethod: notInFake,
      confirmCardPayment: notInFake,
      elements(options: { clientSecret: string; appearance?: unknown }) {
        clientSecret = options.clientSecret;
        appearance = options.appearance ?? {};
        return {
          create: (type: string) => (type === 'payment' ? paymentElement : notInFake()),
          getElement: (type: string) => (type === 'payment' && frame ? paymentElement : null),
          update(changed: { appearance?: unknown }) {
            if (changed.appearance) appearance = changed.appearance;
            showAppearance();
          },
        };
      },
      async confirmPayment({
        confirmParams,
        redirect,
      }: {
        confirmParams: { return_url: string };
        redirect?: 'always' | 'if_required';
      }): Promise<{ error: StripeErrorBody } | { paymentIntent: unknown }> {
        const card = await typedCard();
        if (!card.number) {
          return {
            error: { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' },
          };
        }
        const intentId = clientSecret.split('_secret_')[0] ?? '';
        const answer = await fetch(`https://api.stripe.com/v1/payment_intents/${intentId}/confirm`, {
          method: 'POST',
          body: new URLSearchParams({
            key: publishableKey,
            client_secret: clientSecret,
            return_url: confirmParams.return_url,
            'payment_method_data[type]': 'card',
            'payment_method_data[card][number]': card.number,
            'payment_method_data[card][exp]': card.expiry,
            'payment_method_data[card][cvc]': card.cvc,
          }),
        });
        const body = (await answer.json()) as {
          error?: StripeErrorBody;
          status?: string;
          next_action?: { redirect_to_url?: { url: string } };
        };
        if (body.error) return { error: body.error };
        const bankPage = body.next_action?.redirect_to_url?.url;
        if (bankPage || redirect === 'always') {
          window.location.assign(bankPage ?? confirmParams.return_url);
          // Stripe.js never settles once it has sent the page away.
          return new Promise(() => {});
        }
        return { paymentIntent: body };
      },
    };
  };
}

/** The Payment Element's frame: three labelled fields in the page's appearance, handed over when asked. */
const PAYMENT_ELEMENT_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Payment details</title>
<style>
  body { margin: 0; font: 16px system-ui, sans-serif; }
  label { display: block; margin: 0 0 0.75rem; font-size: 0.875rem; }
  input { display: block; box-sizing: border-box; width: 100%; margin-top: 0.25rem; padding: 0.6rem; font: inherit;
    border: 1px solid #90a1b9; border-radius: 6px; background: inherit; color: inherit; }
  .row { display: grid; grid-template-columns: 1fr 1fr; gap: 0.75rem; }
</style></head>
<body>
  <main>
    <label>Card number <input id="number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234"></label>
    <div class="row">
      <label>Expiration date <input id="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY"></label>
      <label>Security code <input id="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC"></label>
    </div>
  </main>
  <script>
    const value = (id) => document.getElementById(id).value;
    addEventListener('message', (event) => {
      if (event.source !== parent) return;
      if (event.data === 'card') {
        event.ports[0].postMessage({ number: value('number'), expiry: value('expiry'), cvc: value('cvc') });
      } else if (event.data && event.data.appearance) {
        const variables = event.data.appearance.variables || {};
        document.body.style.background = variables.colorBackground || '';
        document.body.style.color = variables.colorText || '';
      }
    });
    parent.postMessage('ready', '*');
  </script>
</body></html>`;

/** The bank's 3-D Secure page, as Stripe's test mode shows it: the holder completes or fails the authentication. */
const bankPageHtml = (action: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>3D Secure test page</title></head>
<body><main>
  <h1>3D Secure 2 test page</h1>
  <p>Confirm the payment as the card holder's bank would ask.</p>
  <form method="post" action="${action}">
    <button name="outcome" value="complete">Complete authentication</button>
    <button name="outcome" value="fail">Fail authentication</button>
  </form>
</main></body></html>`;

const html = (route: Route, body: string) =>
  route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });

/** Answers the page's requests to Stripe's origins from the fakes: Stripe.js, its frame, its API, the bank's page. */
export async function routeStripe(page: Page, fake: StripeFake) {
  await page.route('https://js.stripe.com/**', (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === PAYMENT_ELEMENT_PATH) return html(route, PAYMENT_ELEMENT_HTML);
    return route.fulfill({ contentType: 'text/javascript', body: `(${defineStripe.toString()})();` });
  });

  await page.route('https://api.stripe.com/**', async (route) => {
    const request = route.request();
    const { pathname } = new URL(request.url());
    const answer = await fetch(`${fake.url}${pathname}`, {
      method: request.method(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      ...(request.method() === 'POST' && { body: request.postData() ?? '' }),
    });
    await route.fulfill({
      status: answer.status,
      contentType: 'application/json',
      headers: { 'access-control-allow-origin': (await request.headerValue('origin')) ?? '*' },
      body: await answer.text(),
    });
  });

  await page.route('https://hooks.stripe.com/3d_secure_2/authenticate/**', async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    if (request.method() !== 'POST') return html(route, bankPageHtml(url.pathname + url.search));
    const intentId = url.pathname.split('/').at(-1) ?? '';
    const approved = new URLSearchParams(request.postData() ?? '').get('outcome') === 'complete';
    const intent = fake.authenticate(intentId, approved);
    const back = new URL(url.searchParams.get('return_url') ?? '');
    back.searchParams.set('payment_intent', intentId);
    back.searchParams.set('payment_intent_client_secret', String(intent.client_secret));
    back.searchParams.set('redirect_status', approved ? 'succeeded' : 'failed');
    await route.fulfill({ status: 303, headers: { location: back.href } });
  });
}
