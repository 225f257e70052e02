import { Mail, MapPin, MessageCircle, Phone, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { usePublicSettings } from '#web/lib/settings.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { telHref, whatsappHref } from '#shared/public-settings.ts';
import { ContactForm } from '../components/contact-form.tsx';

const linkClasses = 'font-medium text-primary underline-offset-4 hover:underline break-all';

function ContactMethod({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-4 rounded-xl border bg-card p-5 shadow-sm">
      <div
        aria-hidden="true"
        className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary-soft-foreground"
      >
        <Icon className="size-5" />
      </div>
      <div className="flex min-w-0 flex-col gap-1">
        <h3 className="font-semibold">{title}</h3>
        <div className="text-sm text-muted-foreground">{children}</div>
      </div>
    </li>
  );
}

function ContactMethods() {
  const { settings, isPending } = usePublicSettings();
  const loading = <Skeleton className="mt-1 h-4 w-40" />;
  return (
    <ul className="flex flex-col gap-4">
      <ContactMethod icon={Phone} title="Phone">
        {isPending ? (
          loading
        ) : (
          <a href={telHref(settings.supportPhone)} className={linkClasses}>
            {settings.supportPhone}
          </a>
        )}
      </ContactMethod>
      <ContactMethod icon={Mail} title="E-mail">
        {isPending ? (
          loading
        ) : (
          <a href={`mailto:${settings.supportEmail}`} className={linkClasses}>
            {settings.supportEmail}
          </a>
        )}
      </ContactMethod>
      <ContactMethod icon={MessageCircle} title="WhatsApp">
        {isPending ? (
          loading
        ) : (
          <a
            href={whatsappHref(settings.whatsappNumber)}
            target="_blank"
            rel="noopener noreferrer"
            className={linkClasses}
          >
            Chat with us on WhatsApp<span className="sr-only"> (opens in a new tab)</span>
          </a>
        )}
      </ContactMethod>
      <ContactMethod icon={MapPin} title="Location">
        <p>Lucerne, Switzerland</p>
        <p>We work online and answer students and tutors around the world.</p>
      </ContactMethod>
    </ul>
  );
}

export function ContactPage() {
  useDocumentTitle('Contact');
  return (
    <>
      <div className="border-b bg-surface">
        <Container className="py-12 sm:py-16">
          <p className="text-sm font-semibold tracking-wide text-primary">We&apos;re here to help</p>
          <h1 className="mt-2 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl">Contact us</h1>
          <p className="mt-5 max-w-2xl text-lg leading-8 text-muted-foreground text-pretty">
            Have a question about tutoring, your account or a request? Call us, write to us or send a message below, and
            we will get back to you as soon as we can.
          </p>
        </Container>
      </div>
      <Container className="grid gap-10 py-12 sm:py-16 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:gap-12">
        <section aria-labelledby="contact-details-heading" className="flex flex-col gap-5">
          <h2 id="contact-details-heading" className="text-xl font-semibold">
            Contact details
          </h2>
          <ContactMethods />
        </section>
        <div>
          <Card>
            <CardHeader>
              <h2 className="text-xl leading-snug font-semibold">Send us a message</h2>
              <CardDescription>We read every message and reply by e-mail.</CardDescription>
            </CardHeader>
            <CardContent>
              <ContactForm />
            </CardContent>
          </Card>
        </div>
      </Container>
    </>
  );
}
