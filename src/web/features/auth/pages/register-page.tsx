import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AuthPageShell, authLinkClasses } from '../components/auth-page-shell.tsx';
import { RegisterForm } from '../components/register-form.tsx';

export function RegisterPage() {
  useDocumentTitle('Create your account');
  return (
    <AuthPageShell
      size="wide"
      title="Create your account"
      description="Join Virtual Help as a student looking for help or as a teacher offering it."
      footer={
        <p>
          Already have an account?{' '}
          <Link to={paths.auth.login.getHref()} className={authLinkClasses}>
            Sign in
          </Link>
        </p>
      }
    >
      <RegisterForm />
    </AuthPageShell>
  );
}
