import { Link } from 'react-router';
import { MISSED_SESSION_GRACE_MS, REFUND_ANSWER_DAYS } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import { daysText } from '#shared/public-settings.ts';
import { usePublicSettings } from '#web/lib/settings.ts';
import { StaticPage, type TocEntry } from '../components/static-page.tsx';
import { SupportEmailLink } from '../components/support-email-link.tsx';

const PAYMENTS_ENTRY: TocEntry = { id: 'payments', label: 'Payments and refunds' };

const toc: TocEntry[] = [
  { id: 'our-services', label: 'Our services' },
  { id: 'accounts', label: 'Accounts and eligibility' },
  PAYMENTS_ENTRY,
  { id: 'conduct', label: 'Conduct' },
  { id: 'chat-moderation', label: 'Chat and moderation' },
  { id: 'content', label: 'Your content' },
  { id: 'liability', label: 'Liability' },
  { id: 'termination', label: 'Suspension and termination' },
  { id: 'governing-law', label: 'Governing law' },
  { id: 'contact', label: 'Contact' },
];

/**
 * The terms. Their payments section says what the server does (docs/decisions/0041, 0042, 0044), with the operator's
 * own release delay and commission; a site that takes no payments (PAYMENTS_PROVIDER=none) leaves it out.
 */
export function TermsPage() {
  const { settings } = usePublicSettings();
  return (
    <StaticPage
      eyebrow="Legal"
      title="Terms and Conditions"
      documentTitle="Terms"
      intro="These terms are the agreement between you and Virtual Help when you use our website and services. Please read them carefully."
      toc={settings.payments ? toc : toc.filter((entry) => entry !== PAYMENTS_ENTRY)}
    >
      <p>
        Virtual Help is provided by Virtual Help, based in Lucerne, Switzerland. By creating an account or using the
        service you accept these Terms and Conditions and our{' '}
        <Link to={paths.privacyPolicy.getHref()}>Privacy Policy</Link>. If you do not agree, please do not use Virtual
        Help.
      </p>

      <h2 id="our-services">Our services</h2>
      <p>
        Virtual Help is a marketplace that connects students with independent tutors (also called teachers or experts).
        Our services include online tutoring, assignment help, and exam and paper preparation, together with one-to-one
        chat, file sharing, video meetings and the Guru AI study assistant. Tutors offer their services through the
        platform; Virtual Help provides the platform and support around it.
      </p>

      <h2 id="accounts">Accounts and eligibility</h2>
      <ul>
        <li>
          You must be at least 13 years old to use Virtual Help, and you confirm it when you register; we keep the time
          of that confirmation.
        </li>
        <li>
          You can download your data or delete your account at any time in your account settings. A deleted account can
          be restored for 14 days and is then erased, as our Privacy Policy describes
          {settings.payments
            ? '; an account with an open refund request or money still held or owed is erased once that is settled.'
            : '.'}
        </li>
        <li>
          The information you give when you register must be true and kept up to date. Teachers may only offer help in
          subjects they are qualified to teach.
        </li>
        <li>
          You are responsible for your account and for everything done with it. Keep your password secret and tell us
          straight away if you think someone else has used your account.
        </li>
        <li>One person may hold one account, and accounts may not be sold or transferred.</li>
      </ul>

      {settings.payments && (
        <PaymentTerms releaseAfterDays={settings.releaseAfterDays} commissionPercent={settings.commissionPercent} />
      )}

      <h2 id="conduct">Conduct</h2>
      <p>When you use Virtual Help you agree not to:</p>
      <ul>
        <li>harass, threaten, insult or discriminate against anyone;</li>
        <li>post content that is illegal, hateful, sexual, violent or otherwise inappropriate;</li>
        <li>send spam, run scams or impersonate another person;</li>
        <li>
          use the service to cheat, for example by submitting a tutor&apos;s work as your own where this is not allowed;
        </li>
        <li>try to break, overload or get around the security of the service.</li>
      </ul>
      <p>
        If someone behaves in a way that breaks these rules, please report them using <em>Report user</em> in the chat.
        Every report is reviewed by our moderators.
      </p>

      <h2 id="chat-moderation">Chat and moderation</h2>
      <p>
        For your safety, messages are checked before they are sent. Messages that contain phone numbers, e-mail
        addresses, links to other websites or offensive language are not delivered. Keeping conversations on the
        platform protects both students and tutors from scams and makes it possible for us to help if there is a
        problem. We may record blocked messages and review them to keep the community safe.
      </p>

      <h2 id="content">Your content</h2>
      <p>
        You keep the rights to the requests, messages and files you share. You give Virtual Help permission to store and
        show them to the users they are meant for, as far as needed to provide the service. Only share content you have
        the right to share.
      </p>

      <h2 id="liability">Liability</h2>
      <p>
        Tutors are independent and are responsible for the help they give. We work to keep Virtual Help available and
        reliable, but we provide the service &quot;as is&quot; and cannot promise that it will always be free of
        interruptions or errors, or that you will reach a particular result such as a grade. To the extent the law
        allows, Virtual Help is not liable for indirect or consequential loss, and our total liability is limited to the
        amount you paid us in the twelve months before the claim. Nothing in these terms limits liability that cannot be
        limited by law.
      </p>

      <h2 id="termination">Suspension and termination</h2>
      <p>
        You may stop using Virtual Help and ask us to delete your account at any time. We may suspend or close accounts
        that break these terms, that put other users at risk, or where the law requires us to.
      </p>

      <h2 id="governing-law">Governing law</h2>
      <p>
        These terms are governed by the law of Switzerland. The courts of Lucerne, Switzerland, have jurisdiction,
        unless mandatory consumer protection law gives you the right to go to court where you live. We may update these
        terms; when we make important changes we will let you know before they apply.
      </p>

      <h2 id="contact">Contact</h2>
      <p>
        Questions about these terms? Write to us at <SupportEmailLink /> or use our{' '}
        <Link to={paths.contact.getHref()}>contact form</Link>.
      </p>
    </StaticPage>
  );
}

function PaymentTerms({
  releaseAfterDays,
  commissionPercent,
}: {
  releaseAfterDays: number;
  commissionPercent: number;
}) {
  return (
    <>
      <h2 id="payments">Payments and refunds</h2>
      <ul>
        <li>
          <strong>Prepayment is required.</strong> Tutoring sessions and assignment help are paid in advance: the
          student pays the price of the tutor&apos;s offer when accepting it, and the job starts once it is paid. A
          tutoring job is one session of up to an hour; an assignment needs a deadline before it is paid for.
        </li>
        <li>
          <strong>Your payment is held until the work is done.</strong> We hold it for the job and release it to the
          tutor when the student marks the job completed, or {daysText(releaseAfterDays)} after the tutor marked it
          delivered, unless a refund has been asked for by then. The tutor receives the price less the platform&apos;s
          commission of {commissionPercent}&nbsp;%; money refunded to the student carries no commission.
        </li>
        <li>
          <strong>Refunds apply only if a tutor misses a session or an assignment is not delivered.</strong> A tutor
          misses a session when it was not cancelled and they did not press Join within{' '}
          {MISSED_SESSION_GRACE_MS / 60_000} minutes of its start. An assignment is not delivered when the tutor did not
          mark it delivered by its deadline. The student asks for a refund in the chat with the tutor, while the payment
          is held.
        </li>
        <li>
          The tutor can accept the request, and the whole payment is refunded at once, or contest it within{' '}
          {REFUND_ANSWER_DAYS} days. A contested request, or one left unanswered for {REFUND_ANSWER_DAYS} days, is
          decided by our admins, who may refund all of the payment, part of it (the rest goes to the tutor) or none.
          While a request is open, the payment stays held.
        </li>
        <li>
          A tutor may withdraw from a job, and the student and tutor may agree to cancel it; either way the whole
          payment is refunded. If a tutor&apos;s account is suspended during a job, our admins decide the refund.
        </li>
        <li>
          No refunds are given for sessions that took place or work that was delivered, including when you are not
          satisfied with a grade or result. Once a payment has been released to the tutor, it cannot be refunded in the
          app; write to <SupportEmailLink /> and our support team will look at your case.
        </li>
      </ul>
    </>
  );
}
