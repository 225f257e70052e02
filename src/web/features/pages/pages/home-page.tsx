import {
  BadgeCheck,
  CalendarClock,
  ClipboardList,
  GraduationCap,
  HandCoins,
  MessagesSquare,
  NotebookPen,
  Send,
  Video,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

type Feature = { title: string; text: string; icon: LucideIcon };

const highlights: Feature[] = [
  {
    title: 'Real-time chat',
    text: 'Talk to your tutor one-to-one the moment you need help. Share files, photos of your work and schedule video meetings in the same conversation.',
    icon: MessagesSquare,
  },
  {
    title: 'Expert tutors',
    text: 'Tutors are verified and teach the subjects they know best, from school mathematics to university-level coursework.',
    icon: BadgeCheck,
  },
  {
    title: 'Flexible scheduling',
    text: 'Learn when it suits you. Agree on times that fit around classes, work and family, and book help close to a deadline.',
    icon: CalendarClock,
  },
];

const steps: Feature[] = [
  {
    title: 'Post a request',
    text: 'Say what you need: the subject, the topic, your level and when you need it. It takes a couple of minutes.',
    icon: Send,
  },
  {
    title: 'Compare offers',
    text: 'Tutors who teach your subject reply with their price and a short message. You choose the one that suits you.',
    icon: HandCoins,
  },
  {
    title: 'Learn together',
    text: 'Work through the material in chat and on video, with a tutor who explains things until they make sense.',
    icon: GraduationCap,
  },
];

const services: Feature[] = [
  {
    title: 'Online tutoring',
    text: 'One-to-one lessons for ongoing support in a subject, at your pace and at your level.',
    icon: GraduationCap,
  },
  {
    title: 'Assignment help',
    text: 'Guidance on essays, projects and problem sets, so you understand the work and hand it in with confidence.',
    icon: NotebookPen,
  },
  {
    title: 'Exam & paper preparation',
    text: 'Revision plans, practice questions and feedback on your writing in the weeks before an exam or a paper is due.',
    icon: ClipboardList,
  },
];

function FeatureIcon({ icon: Icon }: { icon: LucideIcon }) {
  return (
    <div
      aria-hidden="true"
      className="flex size-11 items-center justify-center rounded-lg bg-primary-soft text-primary-soft-foreground"
    >
      <Icon className="size-5" />
    </div>
  );
}

/** A still picture of a conversation, drawn with markup (decorative: hidden from screen readers). */
function ChatPreview() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md select-none lg:mx-0 lg:ml-auto">
      <div className="absolute -inset-4 -z-10 rounded-3xl bg-primary/10 blur-2xl" />
      <div className="overflow-hidden rounded-2xl border bg-card shadow-xl">
        <div className="flex items-center gap-3 border-b px-4 py-3">
          <span className="flex size-10 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
            M
          </span>
          <div className="min-w-0">
            <p className="text-sm font-semibold">Maria</p>
            <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
              <span className="size-2 rounded-full bg-emerald-500" />
              Mathematics tutor · online
            </p>
          </div>
        </div>
        <div className="flex flex-col gap-3 bg-surface px-4 py-5 text-sm">
          <p className="max-w-[85%] self-end rounded-2xl rounded-br-sm bg-primary px-3.5 py-2.5 text-primary-foreground">
            Hi Maria! My calculus exam is on Friday. Could we go through derivatives together?
          </p>
          <p className="max-w-[85%] rounded-2xl rounded-bl-sm border bg-card px-3.5 py-2.5">
            Of course. We&apos;ll start with the chain rule, then practise a few past exam questions.
          </p>
          <div className="flex max-w-[85%] items-center gap-3 rounded-xl border bg-card px-3.5 py-3">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary-soft-foreground">
              <Video className="size-4" />
            </span>
            <div className="min-w-0">
              <p className="font-medium">Calculus revision</p>
              <p className="text-xs text-muted-foreground">Video meeting · Thursday, 18:00</p>
            </div>
          </div>
          <p className="max-w-[85%] self-end rounded-2xl rounded-br-sm bg-primary px-3.5 py-2.5 text-primary-foreground">
            Perfect, see you then!
          </p>
        </div>
      </div>
    </div>
  );
}

function SectionHeading({ id, eyebrow, title, text }: { id: string; eyebrow: string; title: string; text: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-wide text-primary">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-balance">
        {title}
      </h2>
      <p className="mt-4 text-base text-muted-foreground text-pretty sm:text-lg">{text}</p>
    </div>
  );
}

export function HomePage() {
  useDocumentTitle();
  return (
    <>
      <section className="border-b bg-linear-to-b from-primary-soft to-background">
        <Container className="grid items-center gap-12 py-14 sm:py-20 lg:grid-cols-[1.1fr_1fr] lg:gap-16 lg:py-24">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border bg-background/70 px-3 py-1 text-sm font-medium text-muted-foreground">
              <BadgeCheck aria-hidden="true" className="size-4 text-primary" />
              One-to-one online tutoring
            </p>
            <h1 className="mt-5 text-4xl font-bold tracking-tight text-balance sm:text-5xl lg:text-6xl">
              Personalised learning with verified expert tutors
            </h1>
            <p className="mt-5 max-w-xl text-lg leading-8 text-muted-foreground text-pretty">
              Virtual Help connects students with verified expert tutors for personalised learning. Post what you need,
              compare offers and learn one-to-one in a real-time chat.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link to={paths.auth.register.getHref('student')}>I&apos;m a Student</Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to={paths.auth.register.getHref('teacher')}>I&apos;m a Teacher</Link>
              </Button>
            </div>
            <p className="mt-4 text-sm text-muted-foreground">
              Already have an account?{' '}
              <Link
                to={paths.auth.login.getHref()}
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                Log in
              </Link>
            </p>
          </div>
          <ChatPreview />
        </Container>
      </section>

      <section aria-labelledby="highlights-heading" className="py-16 sm:py-20">
        <Container>
          <h2 id="highlights-heading" className="sr-only">
            Why Virtual Help
          </h2>
          <ul className="grid gap-6 md:grid-cols-3">
            {highlights.map((item) => (
              <li key={item.title} className="flex flex-col gap-4 rounded-xl border bg-card p-6 shadow-sm">
                <FeatureIcon icon={item.icon} />
                <h3 className="text-lg font-semibold">{item.title}</h3>
                <p className="text-sm leading-6 text-muted-foreground">{item.text}</p>
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <section aria-labelledby="how-it-works-heading" className="border-y bg-surface py-16 sm:py-20">
        <Container>
          <SectionHeading
            id="how-it-works-heading"
            eyebrow="How it works"
            title="From question to understanding in three steps"
            text="No searching through profiles or long sign-up forms. Tell us what you need and the right tutors come to you."
          />
          <ol className="mt-12 grid gap-8 md:grid-cols-3">
            {steps.map((step, index) => (
              <li key={step.title} className="relative flex flex-col gap-3">
                <div className="flex items-center gap-3">
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-base font-semibold text-primary-foreground">
                    {index + 1}
                  </span>
                  <h3 className="text-lg font-semibold">{step.title}</h3>
                </div>
                <p className="text-sm leading-6 text-muted-foreground">{step.text}</p>
              </li>
            ))}
          </ol>
        </Container>
      </section>

      <section aria-labelledby="services-heading" className="py-16 sm:py-20">
        <Container>
          <SectionHeading
            id="services-heading"
            eyebrow="Services"
            title="Help for every part of your studies"
            text="Whether you want steady support through a course or focused help before a deadline, there is a tutor for it."
          />
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            {services.map((service) => (
              <li key={service.title} className="flex gap-4 rounded-xl border bg-card p-6 shadow-sm md:flex-col">
                <FeatureIcon icon={service.icon} />
                <div className="flex flex-col gap-2">
                  <h3 className="text-lg font-semibold">{service.title}</h3>
                  <p className="text-sm leading-6 text-muted-foreground">{service.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <section aria-labelledby="get-started-heading" className="pb-16 sm:pb-20">
        <Container>
          <div className="flex flex-col items-start gap-6 rounded-2xl bg-primary px-6 py-10 text-primary-foreground sm:px-10 md:flex-row md:items-center md:justify-between">
            <div className="max-w-xl">
              <h2 id="get-started-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
                Ready to get started?
              </h2>
              <p className="mt-3 text-base opacity-90">
                Create your account and post your first request, or ask us anything before you begin.
              </p>
            </div>
            <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
              <Button asChild size="lg" variant="secondary">
                <Link to={paths.auth.register.getHref()}>Create your account</Link>
              </Button>
              <Button
                asChild
                size="lg"
                variant="outline"
                className="border-primary-foreground/40 bg-transparent text-primary-foreground hover:bg-primary-foreground/10 hover:text-primary-foreground"
              >
                <Link to={paths.contact.getHref()}>Contact us</Link>
              </Button>
            </div>
          </div>
        </Container>
      </section>
    </>
  );
}
