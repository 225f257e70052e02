import { describe, expect, it } from 'vitest';
import { daysText, fillPublicSettings, settingsPlaceholders, telHref, whatsappHref } from './public-settings.ts';

// A footer as the build renders it from the placeholders (React escapes text and attributes the same way).
const footer = (s: typeof settingsPlaceholders) =>
  `<a href="${telHref(s.supportPhone)}">${s.supportPhone}</a>` +
  `<a href="mailto:${s.supportEmail}">${s.supportEmail}</a>` +
  `<a href="${whatsappHref(s.whatsappNumber)}">WhatsApp</a>`;

describe('fillPublicSettings', () => {
  it("puts the server's settings in the placeholders' place, links included", () => {
    const settings = {
      supportPhone: '+44 20 7946 0958',
      supportEmail: 'help@tutoring.example',
      whatsappNumber: '442079460958',
      jitsiDomain: 'meet.example',
      releaseAfterDays: 10,
      commissionPercent: 12.5,
    };
    expect(fillPublicSettings(footer(settingsPlaceholders), settings)).toBe(
      '<a href="tel:+442079460958">+44 20 7946 0958</a>' +
        '<a href="mailto:help@tutoring.example">help@tutoring.example</a>' +
        '<a href="https://wa.me/442079460958">WhatsApp</a>',
    );
  });

  it('puts in the release delay and the commission of the terms', () => {
    const terms = `<p>Released ${daysText(settingsPlaceholders.releaseAfterDays)} after delivery, less ${settingsPlaceholders.commissionPercent}&nbsp;%.</p>`;
    expect(fillPublicSettings(terms, { ...settingsPlaceholders, releaseAfterDays: 10, commissionPercent: 12.5 })).toBe(
      '<p>Released 10 days after delivery, less 12.5&nbsp;%.</p>',
    );
    expect(fillPublicSettings(terms, { ...settingsPlaceholders, releaseAfterDays: 1, commissionPercent: 15 })).toBe(
      '<p>Released 1 day after delivery, less 15&nbsp;%.</p>',
    );
  });

  it('escapes what it puts in, so a setting cannot add markup', () => {
    const filled = fillPublicSettings(footer(settingsPlaceholders), {
      ...settingsPlaceholders,
      supportPhone: '+1 <script>alert(1)</script>',
      supportEmail: 'a"onmouseover="x@example.org',
    });
    expect(filled).not.toContain('<script>');
    expect(filled).toContain('+1 &#60;script&#62;alert(1)&#60;/script&#62;');
    expect(filled).toContain('mailto:a&#34;onmouseover=&#34;x@example.org"');
  });

  it("takes a setting's dollar signs as they are", () => {
    const filled = fillPublicSettings(footer(settingsPlaceholders), {
      ...settingsPlaceholders,
      supportEmail: "a$'b$&c$$@example.org",
    });
    expect(filled).toContain(`<a href="mailto:a$&#39;b$&#38;c$$@example.org">a$&#39;b$&#38;c$$@example.org</a>`);
  });

  it('leaves a page without placeholders as it is', () => {
    const page = '<p>Call us on +41 41 000 00 00</p>';
    expect(fillPublicSettings(page, { ...settingsPlaceholders, supportPhone: '+1 555' })).toBe(page);
  });
});
