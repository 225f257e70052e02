import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AuthPageShell, authLinkClasses } from '../components/auth-page-shell.tsx';
import { ForgotPasswordForm } from '../components/forgot-password-form.tsx';

export function ForgotPasswordPage() {
  useDocumentTitle('Reset your password');
  return (
    <AuthPageShell
      title="Reset your password"
      description="Enter the e-mail address of your account and we will send you a link to choose a new password."
      footer={
        <p>
          Remembered it?{' '}
          <Link to={paths.auth.login.getHref()} className={authLinkClasses}>
            Back to Sign In
          </Link>
        </p>
      }
    >
      <ForgotPasswordForm />
    </AuthPageShell>
  );
}
