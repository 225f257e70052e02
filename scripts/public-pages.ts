// The public pages: prerendered to HTML at build time, whole (as a signed-out visitor sees them, working without
// scripts), and held to budgets of JavaScript. `module` is the page's file under src/web, as the router's lazy route
// imports it (and the Vite manifest names it). A content page names no script at all (docs/decisions/0019); a page
// with a `form` names the boot script, which loads the app when the visitor first uses the form
// (docs/decisions/0021-forms-that-load-on-first-use.md).
import { paths } from '../src/shared/paths.ts';

const KB = 1024;

/**
 * Gzip bytes of JavaScript a page with a form loads before it is interactive: its boot script alone, well within the
 * 90 KB (110 KB for sign-in) such a page may load.
 */
const BOOT_SCRIPT_BUDGET = 4 * KB;

/**
 * `scriptBudget`: gzip bytes of JavaScript a public page loads up front, before it is interactive (none for a content
 * page). `firstUseBudget`: what a page with a form then loads to hydrate (the app with the page's chunk), a little over
 * its size today, so that growth fails the build. The app's shell carries every route and the session kept for an
 * offline start (2 KB more in November 2026); a page's own code stays out of the others' first use.
 */
export const publicPages = [
  { path: paths.home.path, module: 'features/pages/pages/home-page.tsx' },
  { path: paths.about.path, module: 'features/pages/pages/about-page.tsx' },
  { path: paths.privacyPolicy.path, module: 'features/pages/pages/privacy-policy-page.tsx' },
  { path: paths.terms.path, module: 'features/pages/pages/terms-page.tsx' },
  { path: paths.disclaimer.path, module: 'features/pages/pages/disclaimer-page.tsx' },
  // A form brings react-hook-form; its checks (zod) load as it is filled in.
  { path: paths.contact.path, module: 'features/pages/pages/contact-page.tsx', form: true, firstUseBudget: 158 * KB },
  { path: paths.auth.login.path, module: 'features/auth/pages/login-page.tsx', form: true, firstUseBudget: 161 * KB },
  {
    path: paths.auth.forgotPassword.path,
    module: 'features/auth/pages/forgot-password-page.tsx',
    form: true,
    firstUseBudget: 159 * KB,
  },
  {
    path: paths.auth.register.path,
    module: 'features/auth/pages/register-page.tsx',
    form: true,
    firstUseBudget: 177 * KB,
  },
].map((page) => ({ form: false, firstUseBudget: 0, ...page, scriptBudget: page.form ? BOOT_SCRIPT_BUDGET : 0 }));
