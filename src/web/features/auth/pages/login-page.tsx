import { Link, useSearchParams } from 'react-router';
import { paths } from '#shared/paths.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AuthPageShell, authLinkClasses } from '../components/auth-page-shell.tsx';
import { LoginForm } from '../components/login-form.tsx';

export function LoginPage() {
  useDocumentTitle('Sign in');
  const [searchParams] = useSearchParams();
  const isReturning = searchParams.has('redirectTo');
  return (
    <AuthPageShell
      title="Sign in"
      description={isReturning ? 'Please sign in to continue to that page.' : 'Welcome back to Virtual Help.'}
      footer={
        <p>
          Don&apos;t have an account?{' '}
          <Link to={paths.auth.register.getHref()} className={authLinkClasses}>
            Create an account
          </Link>
        </p>
      }
    >
      <LoginForm />
    </AuthPageShell>
  );
}
