// The public pages: prerendered to HTML at build time, and held to a budget of JavaScript loaded up front.
// `module` is the page's file under src/web, as the router's lazy route imports it (and the Vite manifest names it).
// A `whole` page works without scripts (links, the menu, no form): a signed-out visitor gets its HTML alone, with
// no script at all; every other public page is hydrated by the app (docs/decisions/0019-whole-content-pages.md).
import { paths } from '../src/shared/paths.ts';

const KB = 1024;

/**
 * `scriptBudget`: gzip bytes of JavaScript a public page may load before it is interactive. A whole page loads none;
 * a page with a form loads the app, a little under its budget today, so that growth fails the build. React with
 * React DOM (67 KB), React Router's data router (30 KB) and TanStack Query (11 KB) alone pass the 90 KB such a page
 * should load (docs/decisions/0017-prerendered-public-pages.md): these budgets come down as those do.
 */
export const publicPages = [
  { path: paths.home.path, module: 'features/pages/pages/home-page.tsx', whole: true },
  { path: paths.about.path, module: 'features/pages/pages/about-page.tsx', whole: true },
  { path: paths.privacyPolicy.path, module: 'features/pages/pages/privacy-policy-page.tsx', whole: true },
  { path: paths.terms.path, module: 'features/pages/pages/terms-page.tsx', whole: true },
  { path: paths.disclaimer.path, module: 'features/pages/pages/disclaimer-page.tsx', whole: true },
  // A form brings react-hook-form up front; its checks (zod) load as it is filled in.
  { path: paths.contact.path, module: 'features/pages/pages/contact-page.tsx', scriptBudget: 155 * KB },
  { path: paths.auth.login.path, module: 'features/auth/pages/login-page.tsx', scriptBudget: 157 * KB },
  {
    path: paths.auth.forgotPassword.path,
    module: 'features/auth/pages/forgot-password-page.tsx',
    scriptBudget: 156 * KB,
  },
  { path: paths.auth.register.path, module: 'features/auth/pages/register-page.tsx', scriptBudget: 175 * KB },
].map((page) => ({ whole: false, scriptBudget: 0, ...page }));
