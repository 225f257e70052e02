import { escapeHtml } from '#shared/rules/text.ts';

/** The server's settings the browser may see (GET /api/settings/public): support contact details and the like. */
export type PublicSettings = {
  supportPhone: string;
  supportEmail: string;
  /** Digits only, with country code (for https://wa.me/...). */
  whatsappNumber: string;
  jitsiDomain: string;
  /** Whether money moves through the site: false under PAYMENTS_PROVIDER=none, whose pages say nothing of paying. */
  payments: boolean;
  /** Days after the tutor marked a job delivered when its held money is released (PAYMENTS_RELEASE_AFTER_DAYS). */
  releaseAfterDays: number;
  /** The platform's commission on released money, in percent (PAYMENTS_COMMISSION_PERCENT): 15, or 12.5. */
  commissionPercent: number;
};

/** The settings a page rendered at build time holds as placeholders; `payments` picks its copy instead (0046). */
type FilledSetting = Exclude<keyof PublicSettings, 'payments'>;

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
export const settingsPlaceholders: Pick<PublicSettings, FilledSetting> = {
  supportPhone: '+990000000001',
  supportEmail: 'support-placeholder-0001@settings.invalid',
  whatsappNumber: '990000000002',
  jitsiDomain: 'jitsi-placeholder-0003.invalid',
  releaseAfterDays: 990000000004,
  commissionPercent: 990000000005,
};

/** The settings a page is rendered with at build time: the placeholders, in the copy for this payments mode. */
export const settingsToRender = ({ payments }: { payments: boolean }): PublicSettings => ({
  ...settingsPlaceholders,
  payments,
});

/** The name of the <meta> element in a whole page's head that holds a setting, for the app that hydrates the page. */
export const settingsMetaName = (key: keyof PublicSettings) => `settings:${key}`;

/**
 * The head's <meta> elements with each setting's placeholder, which fillPublicSettings replaces like the others, and
 * the payments mode of the page's copy.
 */
export function settingsMetaTags({ payments }: { payments: boolean }) {
  const settings = settingsToRender({ payments });
  return (Object.keys(settings) as Array<keyof PublicSettings>)
    .map((key) => `<meta name="${settingsMetaName(key)}" content="${escapeHtml(String(settings[key]))}">`)
    .join('');
}

/** A number of days in words, as the terms say the release delay: "1 day", "7 days". */
export const daysText = (days: number) => `${days} ${days === 1 ? 'day' : 'days'}`;

/** `html`, rendered with settingsPlaceholders, with the server's settings in their place (escaped for HTML). */
export function fillPublicSettings(html: string, settings: Pick<PublicSettings, FilledSetting>) {
  // The links and the delay in days first: each is a placeholder with more around it (the delay's word follows its
  // number), which the plain values would otherwise take.
  const replacements: Array<[string, string]> = [
    [telHref(settingsPlaceholders.supportPhone), telHref(settings.supportPhone)],
    [whatsappHref(settingsPlaceholders.whatsappNumber), whatsappHref(settings.whatsappNumber)],
    [daysText(settingsPlaceholders.releaseAfterDays), daysText(settings.releaseAfterDays)],
    ...(Object.keys(settingsPlaceholders) as FilledSetting[]).map((key): [string, string] => [
      String(settingsPlaceholders[key]),
      String(settings[key]),
    ]),
  ];
  return replacements.reduce(
    // A function, so that `$&` and the like in a setting are taken as they are, not as replacement patterns.
    (filled, [placeholder, value]) => filled.replaceAll(escapeHtml(placeholder), () => escapeHtml(value)),
    html,
  );
}
