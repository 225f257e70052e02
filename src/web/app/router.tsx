import { replace, type RouteObject } from 'react-router';
import { RedirectIfSignedIn, RequireAuth, RequirePayments } from './guards.tsx';
import { RootLayout } from './layout/root-layout.tsx';
import { PageFallback } from './page-fallback.tsx';
import { paths } from '#shared/paths.ts';
import { RouteErrorBoundary } from './route-error-boundary.tsx';
import { prefetchRooms } from '#web/features/chat/rooms-query.ts';
import { ChatPageFrame } from '#web/features/chat/components/chat-page-frame.tsx';
import { JobsPageFrame } from '#web/features/requests/components/jobs-page-frame.tsx';
import { prefetchJobs } from '#web/features/requests/jobs-query.ts';
import type { RouteHandle } from './route-handle.ts';

// Every page is its own chunk, loaded when its route is first visited: the entry holds only the shell.
const pageRoutes: RouteObject[] = [
  {
    index: true,
    lazy: async () => ({ Component: (await import('#web/features/pages/pages/home-page.tsx')).HomePage }),
  },

  // Open to visitors: they see the tutors who show their profile to visitors.
  {
    path: paths.tutors.path,
    lazy: async () => ({ Component: (await import('#web/features/tutors/pages/directory-page.tsx')).DirectoryPage }),
  },

  // Signed-in users have no business on these two: RedirectIfSignedIn sends them on.
  {
    element: <RedirectIfSignedIn />,
    children: [
      {
        path: paths.auth.login.path,
        lazy: async () => ({ Component: (await import('#web/features/auth/pages/login-page.tsx')).LoginPage }),
      },
      {
        path: paths.auth.register.path,
        lazy: async () => ({ Component: (await import('#web/features/auth/pages/register-page.tsx')).RegisterPage }),
      },
    ],
  },
  {
    path: paths.auth.forgotPassword.path,
    lazy: async () => ({
      Component: (await import('#web/features/auth/pages/forgot-password-page.tsx')).ForgotPasswordPage,
    }),
  },
  {
    path: paths.auth.resetPassword.path,
    lazy: async () => ({
      Component: (await import('#web/features/auth/pages/reset-password-page.tsx')).ResetPasswordPage,
    }),
  },

  // Pages for any signed-in user.
  {
    element: <RequireAuth />,
    children: [
      {
        path: paths.chat.path,
        lazy: async () => ({ Component: (await import('#web/features/chat/pages/chat-page.tsx')).ChatPage }),
        handle: {
          prefetch: prefetchRooms,
          frame: { student: <ChatPageFrame role="student" />, teacher: <ChatPageFrame role="teacher" /> },
        } satisfies RouteHandle,
      },
      {
        path: paths.profile.path,
        lazy: async () => ({ Component: (await import('#web/features/profiles/pages/profile-page.tsx')).ProfilePage }),
      },
      {
        path: paths.settings.account.path,
        lazy: async () => ({
          Component: (await import('#web/features/account/pages/account-settings-page.tsx')).AccountSettingsPage,
        }),
      },
      {
        path: paths.settings.notifications.path,
        lazy: async () => ({
          Component: (await import('#web/features/notifications/pages/notification-settings-page.tsx'))
            .NotificationSettingsPage,
        }),
      },
      {
        path: paths.search.experts.path,
        lazy: async () => ({
          Component: (await import('#web/features/search/pages/search-experts-page.tsx')).SearchExpertsPage,
        }),
      },
      {
        path: paths.tutor.path,
        lazy: async () => ({ Component: (await import('#web/features/tutors/pages/tutor-page.tsx')).TutorPage }),
      },
      {
        path: paths.reportUser.path,
        lazy: async () => ({
          Component: (await import('#web/features/reports/pages/report-user-page.tsx')).ReportUserPage,
        }),
      },
    ],
  },
  // ARCHITECTURE.md §5: the old student nav link lands on the one real search page.
  { path: paths.search.tutors.path, loader: () => replace(paths.search.experts.getHref()) },

  // Teachers only.
  {
    element: <RequireAuth role="teacher" />,
    children: [
      {
        path: paths.search.students.path,
        lazy: async () => ({
          Component: (await import('#web/features/search/pages/search-students-page.tsx')).SearchStudentsPage,
        }),
      },
      {
        path: paths.teacher.jobs.path,
        lazy: async () => ({ Component: (await import('#web/features/requests/pages/jobs-page.tsx')).JobsPage }),
        // A teacher's: the top bar has Find Jobs.
        handle: { prefetch: prefetchJobs, frame: { teacher: <JobsPageFrame /> } } satisfies RouteHandle,
      },
      {
        element: <RequirePayments />,
        children: [
          {
            path: paths.earnings.path,
            lazy: async () => ({
              Component: (await import('#web/features/payments/pages/earnings-page.tsx')).EarningsPage,
            }),
          },
        ],
      },
    ],
  },

  // Students only.
  {
    element: <RequireAuth role="student" />,
    children: [
      {
        path: paths.savedTutors.path,
        lazy: async () => ({
          Component: (await import('#web/features/tutors/pages/saved-tutors-page.tsx')).SavedTutorsPage,
        }),
      },
      {
        path: paths.student.posts.path,
        lazy: async () => ({
          Component: (await import('#web/features/requests/pages/my-requests-page.tsx')).MyRequestsPage,
        }),
      },
      {
        path: paths.student.offers.path,
        lazy: async () => ({ Component: (await import('#web/features/requests/pages/offers-page.tsx')).OffersPage }),
      },
      {
        element: <RequirePayments />,
        children: [
          {
            path: paths.checkout.path,
            lazy: async () => ({
              Component: (await import('#web/features/payments/pages/checkout-page.tsx')).CheckoutPage,
            }),
          },
          {
            path: paths.payments.path,
            lazy: async () => ({
              Component: (await import('#web/features/payments/pages/payments-page.tsx')).PaymentsPage,
            }),
          },
          {
            path: paths.receipt.path,
            lazy: async () => ({
              Component: (await import('#web/features/payments/pages/receipt-page.tsx')).ReceiptPage,
            }),
          },
        ],
      },
    ],
  },

  {
    path: paths.about.path,
    lazy: async () => ({ Component: (await import('#web/features/pages/pages/about-page.tsx')).AboutPage }),
  },
  {
    path: paths.contact.path,
    lazy: async () => ({ Component: (await import('#web/features/pages/pages/contact-page.tsx')).ContactPage }),
  },
  {
    path: paths.privacyPolicy.path,
    lazy: async () => ({
      Component: (await import('#web/features/pages/pages/privacy-policy-page.tsx')).PrivacyPolicyPage,
    }),
  },
  {
    path: paths.terms.path,
    lazy: async () => ({ Component: (await import('#web/features/pages/pages/terms-page.tsx')).TermsPage }),
  },
  {
    path: paths.disclaimer.path,
    lazy: async () => ({
      Component: (await import('#web/features/pages/pages/disclaimer-page.tsx')).DisclaimerPage,
    }),
  },

  {
    path: paths.admin.dashboard.path,
    lazy: async () => ({ Component: (await import('#web/features/admin/pages/admin-layout.tsx')).AdminLayout }),
    children: [
      {
        index: true,
        lazy: async () => ({
          Component: (await import('#web/features/admin/pages/admin-dashboard-page.tsx')).AdminDashboardPage,
        }),
      },
      {
        path: paths.admin.reports.path,
        lazy: async () => ({
          Component: (await import('#web/features/admin/pages/admin-reports-page.tsx')).AdminReportsPage,
        }),
      },
      {
        path: paths.admin.illegalContent.path,
        lazy: async () => ({
          Component: (await import('#web/features/admin/pages/admin-illegal-content-page.tsx')).AdminIllegalContentPage,
        }),
      },
      {
        path: paths.admin.meetingStats.path,
        lazy: async () => ({
          Component: (await import('#web/features/admin/pages/admin-meeting-stats-page.tsx')).AdminMeetingStatsPage,
        }),
      },
      {
        path: paths.admin.subAdmins.path,
        lazy: async () => ({
          Component: (await import('#web/features/admin/pages/admin-sub-admins-page.tsx')).AdminSubAdminsPage,
        }),
      },
      {
        path: paths.admin.user.path,
        lazy: async () => ({
          Component: (await import('#web/features/admin/pages/admin-user-page.tsx')).AdminUserPage,
        }),
      },
      {
        path: paths.admin.patterns.path,
        lazy: async () => ({
          Component: (await import('#web/features/admin/pages/admin-patterns-page.tsx')).AdminPatternsPage,
        }),
      },
      {
        path: paths.admin.contactMessages.path,
        lazy: async () => ({
          Component: (await import('#web/features/admin/pages/admin-contact-messages-page.tsx'))
            .AdminContactMessagesPage,
        }),
      },
      {
        path: paths.admin.accountDeletions.path,
        lazy: async () => ({
          Component: (await import('#web/features/admin/pages/admin-account-deletions-page.tsx'))
            .AdminAccountDeletionsPage,
        }),
      },
      {
        path: paths.admin.auditLog.path,
        lazy: async () => ({
          Component: (await import('#web/features/admin/pages/admin-audit-log-page.tsx')).AdminAuditLogPage,
        }),
      },
      {
        path: paths.admin.payments.path,
        lazy: async () => ({
          Component: (await import('#web/features/admin/pages/admin-payments-page.tsx')).AdminPaymentsPage,
        }),
      },
      {
        path: paths.admin.security.path,
        lazy: async () => ({
          Component: (await import('#web/features/admin/pages/admin-security-page.tsx')).AdminSecurityPage,
        }),
      },
    ],
  },

  {
    path: '*',
    lazy: async () => ({ Component: (await import('#web/features/pages/pages/not-found-page.tsx')).NotFoundPage }),
  },
];

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    // Only if the top bar or footer itself fails: a page on its own, without the layout.
    errorElement: <RouteErrorBoundary standalone />,
    children: [
      {
        id: 'pages',
        // Page errors and first-load waits show inside the layout, so the top bar stays usable.
        errorElement: <RouteErrorBoundary />,
        HydrateFallback: PageFallback,
        children: pageRoutes,
      },
    ],
  },
];
