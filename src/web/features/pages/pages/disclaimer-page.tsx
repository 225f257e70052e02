import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { StaticPage } from '../components/static-page.tsx';

export function DisclaimerPage() {
  return (
    <StaticPage
      eyebrow="Legal"
      title="Disclaimer"
      intro="Virtual Help supports learning. Please read what that means, and what it does not, before you use our services."
    >
      <h2>Educational support</h2>
      <p>
        The tutoring, assignment help, exam preparation and study materials offered on Virtual Help are meant to help
        you learn: to explain ideas, show methods, give feedback and build your confidence. They are not a replacement
        for your own study, your teachers or your school&apos;s official materials.
      </p>

      <h2>Academic integrity</h2>
      <p>
        You are responsible for following the rules of your school, college or university. Use the help you receive to
        understand your work and improve it yourself. Handing in work prepared by someone else as your own may break
        your institution&apos;s rules on academic honesty. Virtual Help and its tutors do not support cheating and are
        not responsible for how you use the help you receive.
      </p>

      <h2>No guarantee of results</h2>
      <p>
        Learning depends on many things, including the effort you put in. We cannot promise a particular grade, exam
        result, admission or other outcome. Tutors are independent and share their knowledge in good faith, but their
        advice reflects their own understanding and experience.
      </p>

      <h2>Guru AI answers may be wrong</h2>
      <p>
        Guru AI, our study assistant, generates answers automatically. It can be helpful, but it can also make mistakes,
        misunderstand a question or give answers that are incomplete or out of date. Always check important answers,
        especially in calculations, and ask a tutor when you are not sure: you can{' '}
        <Link to={paths.search.experts.getHref()}>search for an expert</Link> or{' '}
        <Link to={paths.student.posts.getHref()}>create a new request</Link>.
      </p>

      <h2>External links</h2>
      <p>
        Virtual Help may link to other websites, such as video meeting services or social networks. We do not control
        those sites and are not responsible for their content, availability or privacy practices. Visiting them is at
        your own risk, under their own terms.
      </p>

      <h2>Questions</h2>
      <p>
        If anything here is unclear, please <Link to={paths.contact.getHref()}>contact us</Link>. See also our{' '}
        <Link to={paths.terms.getHref()}>Terms and Conditions</Link> and{' '}
        <Link to={paths.privacyPolicy.getHref()}>Privacy Policy</Link>.
      </p>
    </StaticPage>
  );
}
