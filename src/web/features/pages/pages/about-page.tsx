import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { StaticPage } from '../components/static-page.tsx';

export function AboutPage() {
  return (
    <StaticPage
      eyebrow="About us"
      title="About Virtual Help"
      documentTitle="About"
      intro="Virtual Help is an online tutoring marketplace that connects students with verified expert tutors for personalised, one-to-one learning."
    >
      <h2>Our mission</h2>
      <p>
        Every student learns differently, and most get stuck at some point: a topic that will not click, an assignment
        that is due too soon, an exam that feels too close. Our mission is to make it simple to get real help from a
        real expert at exactly that moment, and to make learning personal again.
      </p>
      <p>
        We do this by bringing students and tutors together in one place. Students describe what they need, tutors with
        matching subject knowledge offer to help, and both work together in a private, real-time chat until the student
        understands the material and feels confident.
      </p>

      <h2>What we offer</h2>
      <ul>
        <li>
          <strong>Online tutoring</strong> for ongoing support in a subject, with lessons planned around the
          student&apos;s level, goals and schedule.
        </li>
        <li>
          <strong>Assignment help</strong> for essays, projects and problem sets: explanations, feedback and guidance
          that help students do their own best work.
        </li>
        <li>
          <strong>Exam and paper preparation</strong>, from revision plans and practice questions to feedback on drafts
          before a deadline.
        </li>
        <li>
          <strong>Guru AI</strong>, our study assistant, for quick questions at any hour, including step-by-step help
          with mathematics.
        </li>
      </ul>

      <h2>A global classroom</h2>
      <p>
        Virtual Help is based in Lucerne, Switzerland, and works entirely online. Students and tutors join from many
        countries and time zones, which means help is often available in the evening, at the weekend or the night before
        a deadline. All you need is a browser and an internet connection.
      </p>

      <h2>Expert tutors</h2>
      <p>
        Tutors on Virtual Help teach the subjects they know best. When they register, they choose their specialisations,
        and they only see requests in those subjects. Each tutor has a public Virtual Help number, so students can find
        a tutor they have worked with before and continue where they left off.
      </p>
      <p>Students stay in control: they compare offers, read each tutor&apos;s message and decide who to work with.</p>

      <h2>Quality and safety</h2>
      <p>
        Good teaching depends on trust. Conversations, shared files and video meetings stay together on the platform,
        where our moderators can help if something goes wrong. To protect everyone, the chat does not allow phone
        numbers, e-mail addresses or outside links, and anyone can report a user who behaves inappropriately. Every
        report is reviewed by our team.
      </p>
      <p>
        We also believe in honest learning. Our tutors explain, guide and give feedback; they help students understand
        their work rather than do it for them. You can read more in our{' '}
        <Link to={paths.terms.getHref()}>Terms and Conditions</Link> and{' '}
        <Link to={paths.disclaimer.getHref()}>Disclaimer</Link>.
      </p>

      <h2>Get in touch</h2>
      <p>
        Questions, ideas or feedback? We would love to hear from you. Visit our{' '}
        <Link to={paths.contact.getHref()}>contact page</Link> to call, write or send us a message.
      </p>
    </StaticPage>
  );
}
