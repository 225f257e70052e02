import { Briefcase, CirclePlay, Mail, MapPin, MessageCircle, Phone, Pin, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Container } from '#web/components/ui/container.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { usePublicSettings } from '#web/lib/settings.ts';
import { useAfterHydration } from '#web/lib/use-hydrated.ts';
import { telHref, whatsappHref } from '#shared/public-settings.ts';
import { paths } from '#shared/paths.ts';
import { Logo } from './logo.tsx';

// lucide has no brand logos: each network gets a plain icon and its name.
const socialProfiles: { label: string; href: string; icon: LucideIcon }[] = [
  { label: 'LinkedIn', href: 'https://www.linkedin.com/company/virtual-help', icon: Briefcase },
  { label: 'YouTube', href: 'https://www.youtube.com/@virtualhelp', icon: CirclePlay },
  { label: 'Pinterest', href: 'https://www.pinterest.com/virtualhelp', icon: Pin },
];

const quickLinks = [
  { label: 'Home', href: paths.home.getHref() },
  { label: 'Find Tutors', href: paths.tutors.getHref() },
  { label: 'Chat', href: paths.chat.getHref() },
  { label: 'About', href: paths.about.getHref() },
  { label: 'Contact', href: paths.contact.getHref() },
];

const legalLinks = [
  { label: 'Privacy Policy', href: paths.privacyPolicy.getHref() },
  { label: 'Terms', href: paths.terms.getHref() },
  { label: 'Disclaimer', href: paths.disclaimer.getHref() },
];

const headingClasses = 'text-sm font-semibold tracking-wide text-foreground';
const linkClasses =
  'inline-flex min-h-11 items-center text-sm text-muted-foreground underline-offset-4 transition-colors hover:text-foreground hover:underline md:min-h-8';

function NewTabHint() {
  return <span className="sr-only"> (opens in a new tab)</span>;
}

function ContactDetails() {
  const { settings, isPending } = usePublicSettings();
  const rowClasses = 'flex items-start gap-3 text-sm text-muted-foreground';
  const iconClasses = 'mt-0.5 size-4 shrink-0 text-primary';
  return (
    <address className="flex flex-col gap-3 not-italic">
      <p className={rowClasses}>
        <Phone aria-hidden="true" className={iconClasses} />
        <span className="sr-only">Phone: </span>
        {isPending ? (
          <Skeleton className="h-5 w-32" />
        ) : (
          <a href={telHref(settings.supportPhone)} className="hover:text-foreground hover:underline">
            {settings.supportPhone}
          </a>
        )}
      </p>
      <p className={rowClasses}>
        <Mail aria-hidden="true" className={iconClasses} />
        <span className="sr-only">E-mail: </span>
        {isPending ? (
          <Skeleton className="h-5 w-44" />
        ) : (
          <a href={`mailto:${settings.supportEmail}`} className="break-all hover:text-foreground hover:underline">
            {settings.supportEmail}
          </a>
        )}
      </p>
      <p className={rowClasses}>
        <MapPin aria-hidden="true" className={iconClasses} />
        <span className="sr-only">Location: </span>
        Lucerne, Switzerland
      </p>
    </address>
  );
}

function SocialLinks() {
  const { settings } = usePublicSettings();
  const profiles = [
    ...socialProfiles,
    { label: 'WhatsApp', href: whatsappHref(settings.whatsappNumber), icon: MessageCircle },
  ];
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Virtual Help on social media">
      {profiles.map(({ label, href, icon: Icon }) => (
        <li key={label}>
          <a
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex h-11 items-center gap-2 rounded-full border bg-background px-3 text-sm text-muted-foreground transition-colors hover:border-primary hover:text-foreground md:h-9"
          >
            <Icon aria-hidden="true" className="size-4" />
            {label}
            <NewTabHint />
          </a>
        </li>
      ))}
    </ul>
  );
}

function LinkList({
  id,
  title,
  links,
}: {
  id: string;
  title: string;
  links: ReadonlyArray<{ href: string; label: string }>;
}) {
  return (
    <nav aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className={headingClasses}>
        {title}
      </h2>
      <ul className="flex flex-col md:gap-1">
        {links.map((link) => (
          <li key={link.href}>
            <Link to={link.href} className={linkClasses}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SiteFooter() {
  // The build's year in prerendered HTML and while the browser hydrates it: if the two differed, React would render
  // the page anew, and what was typed into its form would be lost.
  const year = useAfterHydration(() => new Date().getFullYear(), __BUILD_YEAR__);
  return (
    <footer className="border-t bg-surface print:hidden">
      <Container className="grid grid-cols-2 gap-x-6 gap-y-10 py-12 lg:grid-cols-[1.6fr_1fr_1fr_1.3fr]">
        <div className="col-span-2 flex flex-col gap-4 lg:col-span-1">
          <Link to={paths.home.getHref()} className="w-fit rounded-md">
            <Logo />
          </Link>
          <p className="max-w-sm text-sm leading-6 text-muted-foreground">
            Your partner in academic success. Virtual Help connects students with verified expert tutors for one-to-one
            tutoring, assignment help and exam preparation.
          </p>
          <SocialLinks />
        </div>

        <LinkList id="footer-quick-links" title="Quick links" links={quickLinks} />
        <LinkList id="footer-legal" title="Legal" links={legalLinks} />

        <section aria-labelledby="footer-contact" className="col-span-2 flex flex-col gap-3 lg:col-span-1">
          <h2 id="footer-contact" className={headingClasses}>
            Contact
          </h2>
          <ContactDetails />
        </section>
      </Container>

      <div className="border-t">
        <Container className="flex flex-col gap-2 py-6 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
          <p>© {year} Virtual Help. All rights reserved.</p>
          <p>Based in Lucerne, Switzerland.</p>
        </Container>
      </div>
    </footer>
  );
}
