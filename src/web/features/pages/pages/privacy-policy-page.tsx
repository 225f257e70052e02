import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { StaticPage, type TocEntry } from '../components/static-page.tsx';
import { SupportEmailLink } from '../components/support-email-link.tsx';

const toc: TocEntry[] = [
  { id: 'information-we-collect', label: 'Information we collect' },
  { id: 'how-we-use-information', label: 'How we use information' },
  { id: 'sharing', label: 'When we share information' },
  { id: 'retention', label: 'How long we keep it' },
  { id: 'security', label: 'Security' },
  { id: 'children', label: 'Children' },
  { id: 'your-rights', label: 'Your rights' },
  { id: 'changes', label: 'Changes to this policy' },
  { id: 'contact', label: 'Contact us' },
];

export function PrivacyPolicyPage() {
  return (
    <StaticPage
      eyebrow="Legal"
      title="Privacy Policy"
      intro="This policy explains what personal information Virtual Help collects, why we collect it, and the choices you have."
      meta={
        <>
          Effective date: <time dateTime="2024-03-18">March 18, 2024</time>
        </>
      }
      toc={toc}
    >
      <p>
        Virtual Help (&quot;we&quot;, &quot;us&quot;) operates an online tutoring marketplace from Lucerne, Switzerland.
        We handle personal information in line with the Swiss Federal Act on Data Protection and, where it applies, the
        EU General Data Protection Regulation. By using Virtual Help you agree to the handling of your information as
        described here.
      </p>

      <h2 id="information-we-collect">Information we collect</h2>
      <ul>
        <li>
          <strong>Account details:</strong> your username, e-mail address, password (stored only in a securely hashed
          form), your role as a student or teacher, your Virtual Help number and, if you add one, a profile picture.
        </li>
        <li>
          <strong>Teaching details:</strong> for teachers, the subjects you choose to teach.
        </li>
        <li>
          <strong>What you post and send:</strong> tutoring and assignment requests, their attachments, bids, chat
          messages, files and photos you share, scheduled meetings, reports about other users, and messages you send
          through our contact form.
        </li>
        <li>
          <strong>Questions to Guru AI:</strong> the questions and images you send to our study assistant and its
          answers, which are kept in your conversation.
        </li>
        <li>
          <strong>Technical information:</strong> the information your browser sends when you use the service, such as
          your IP address, browser type and the time of your visit, and a session cookie that keeps you signed in. We do
          not use advertising or tracking cookies.
        </li>
      </ul>

      <h2 id="how-we-use-information">How we use information</h2>
      <ul>
        <li>to create and run your account and keep you signed in;</li>
        <li>to match requests with teachers who teach the subject, and to deliver offers, messages and meetings;</li>
        <li>to send you notifications about new jobs, offers and messages, in the app and by e-mail;</li>
        <li>to answer your questions to Guru AI and to your messages to our support team;</li>
        <li>
          to keep the platform safe: to check messages for contact details, links and abusive content, to review
          reports, and to prevent fraud and misuse;
        </li>
        <li>to meet our legal obligations and to enforce our Terms and Conditions.</li>
      </ul>

      <h2 id="sharing">When we share information</h2>
      <p>We do not sell your personal information. We share it only:</p>
      <ul>
        <li>
          with the people you work with: your username, profile picture and Virtual Help number are visible to other
          users, and your requests, bids and messages are visible to the users they are meant for;
        </li>
        <li>
          with service providers who host our servers, store files, deliver e-mail, provide video meetings or power the
          AI assistant, and only as far as they need it to provide their service to us;
        </li>
        <li>when the law requires it, or to protect the safety and rights of our users and of Virtual Help.</li>
      </ul>

      <h2 id="retention">How long we keep it</h2>
      <ul>
        <li>
          <strong>Your account, profile, requests, messages and files:</strong> for as long as your account exists.
        </li>
        <li>
          <strong>When you delete your account:</strong> you are signed out everywhere at once and hidden from other
          users, and you can still restore the account for 14 days. Then we erase your e-mail address, password, profile
          picture, profile texts, uploaded files, devices and notifications. Messages you sent stay in the other
          person&apos;s conversation and reviews you wrote stay on the tutor&apos;s page, shown from &quot;Deleted
          user&quot;. Payment records we must keep by law keep only an anonymous number, not your name or address.
        </li>
        <li>
          <strong>Your consent to the minimum age:</strong> the time you confirmed that you are at least 13, for as long
          as your account exists.
        </li>
        <li>
          <strong>Data you download:</strong> the file of &quot;Download my data&quot; is deleted 7 days after it is
          ready.
        </li>
        <li>
          <strong>Backups:</strong> an account erased after a backup was made is erased again whenever that backup is
          restored.
        </li>
        <li>
          <strong>Technical logs</strong> are kept for a short period only.
        </li>
      </ul>

      <h2 id="security">Security</h2>
      <p>
        We protect your information with encrypted connections, hashed passwords, access controls and regular reviews of
        our systems. Files you share are only available to the people in the conversation. No service can promise
        perfect security, so please choose a strong password, keep it to yourself and tell us at once if you think your
        account has been misused.
      </p>

      <h2 id="children">Children</h2>
      <p>
        Virtual Help is meant for people aged 13 and over. Children under 13 may not create an account. If you believe a
        child under 13 has given us personal information, please contact us and we will delete it.
      </p>

      <h2 id="your-rights">Your rights</h2>
      <p>You can, at any time:</p>
      <ul>
        <li>
          download a copy of the personal information we hold about you: choose &quot;Download my data&quot; in your{' '}
          <Link to={paths.settings.account.getHref()}>account settings</Link>;
        </li>
        <li>correct information that is wrong or incomplete;</li>
        <li>
          delete your account and your personal information: choose &quot;Delete my account&quot; in your account
          settings (an account with an open refund request or money still held or owed is deleted once that is settled);
        </li>
        <li>object to or ask us to restrict certain uses of your information;</li>
        <li>complain to your data protection authority; in Switzerland this is the FDPIC.</li>
      </ul>

      <h2 id="changes">Changes to this policy</h2>
      <p>
        We may update this policy as the service changes. When we make important changes we will tell you in the app or
        by e-mail before they take effect. The effective date at the top always shows the current version.
      </p>

      <h2 id="contact">Contact us</h2>
      <p>
        For questions about your privacy or to use your rights, write to us at <SupportEmailLink /> or use our{' '}
        <Link to={paths.contact.getHref()}>contact form</Link>. Virtual Help is based in Lucerne, Switzerland.
      </p>
    </StaticPage>
  );
}
