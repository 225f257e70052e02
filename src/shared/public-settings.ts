import { escapeHtml } from '#shared/rules/text.ts';

/** The server's settings the browser may see (GET /api/settings/public): support contact details and the like. */
export type PublicSettings = {
  supportPhone: string;
  supportEmail: string;
  /** Digits only, with country code (for https://wa.me/...). */
  whatsappNumber: string;
  jitsiDomain: string;
};

export function telHref(phone: string) {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

export function whatsappHref(number: string, text?: string) {
  const digits = number.replace(/\D/g, '');
  return `https://wa.me/${digits}${text ? `?text=${encodeURIComponent(text)}` : ''}`;
}

/**
 * What a page rendered at build time shows for the settings, which only the running server knows: values that
 * survive telHref and whatsappHref unchanged and appear nowhere else, so that the server can put its own in their
 * place (fillPublicSettings).
 */
export const settingsPlaceholders: PublicSettings = {
  supportPhone: '+990000000001',
  supportEmail: 'support-placeholder-0001@settings.invalid',
  whatsappNumber: '990000000002',
  jitsiDomain: 'jitsi-placeholder-0003.invalid',
};

/** The name of the <meta> element in a whole page's head that holds a setting, for the app that hydrates the page. */
export const settingsMetaName = (key: keyof PublicSettings) => `settings:${key}`;

/** The head's <meta> elements with each setting's placeholder, which fillPublicSettings replaces like the others. */
export function settingsMetaTags() {
  return (Object.keys(settingsPlaceholders) as Array<keyof PublicSettings>)
    .map((key) => `<meta name="${settingsMetaName(key)}" content="${escapeHtml(settingsPlaceholders[key])}">`)
    .join('');
}

/** `html`, rendered with settingsPlaceholders, with the server's settings in their place (escaped for HTML). */
export function fillPublicSettings(html: string, settings: PublicSettings) {
  // The links first: each is a placeholder with more around it, which the plain values would otherwise take.
  const replacements: Array<[string, string]> = [
    [telHref(settingsPlaceholders.supportPhone), telHref(settings.supportPhone)],
    [whatsappHref(settingsPlaceholders.whatsappNumber), whatsappHref(settings.whatsappNumber)],
    ...(Object.keys(settingsPlaceholders) as Array<keyof PublicSettings>).map((key): [string, string] => [
      settingsPlaceholders[key],
      settings[key],
    ]),
  ];
  return replacements.reduce(
    // A function, so that `$&` and the like in a setting are taken as they are, not as replacement patterns.
    (filled, [placeholder, value]) => filled.replaceAll(escapeHtml(placeholder), () => escapeHtml(value)),
    html,
  );
}
