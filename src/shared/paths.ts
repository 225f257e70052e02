import type { Role } from './constants.ts';

/**
 * Every route of SPEC.md §2: `path` is the router pattern, `getHref` builds a link.
 * Shared so the links the server writes (mails, notifications) match the web routes.
 * Components link through here, never with hand-written strings.
 */
export const paths = {
  home: { path: '/', getHref: () => '/' },

  auth: {
    login: {
      path: '/auth/login',
      getHref: (redirectTo?: string) =>
        redirectTo ? `/auth/login?redirectTo=${encodeURIComponent(redirectTo)}` : '/auth/login',
    },
    register: {
      path: '/auth/register',
      getHref: (role?: Role) => (role ? `/auth/register?role=${role}` : '/auth/register'),
    },
    forgotPassword: { path: '/auth/forgot-password', getHref: () => '/auth/forgot-password' },
    resetPassword: { path: '/auth/reset-password', getHref: () => '/auth/reset-password' },
  },

  chat: {
    path: '/chat',
    getHref: (tutorId?: string) => (tutorId ? `/chat?tutorId=${encodeURIComponent(tutorId)}` : '/chat'),
  },
  profile: { path: '/profile', getHref: () => '/profile' },
  settings: {
    account: {
      path: '/settings/account',
      getHref: (emailChange?: string) =>
        emailChange ? `/settings/account?emailChange=${encodeURIComponent(emailChange)}` : '/settings/account',
    },
    notifications: { path: '/settings/notifications', getHref: () => '/settings/notifications' },
  },
  checkout: {
    path: '/checkout/:checkoutId',
    getHref: (checkoutId: string) => `/checkout/${encodeURIComponent(checkoutId)}`,
  },
  /** Find Tutors, the directory; its filters are the query string (the API's own names). */
  tutors: { path: '/tutors', getHref: (search = '') => (search ? `/tutors?${search}` : '/tutors') },
  savedTutors: { path: '/tutors/saved', getHref: () => '/tutors/saved' },
  tutor: {
    path: '/tutors/:tutorId',
    getHref: (tutorId: string) => `/tutors/${encodeURIComponent(tutorId)}`,
  },

  search: {
    students: { path: '/search-student', getHref: () => '/search-student' },
    experts: { path: '/search-experts', getHref: () => '/search-experts' },
    /** Old name of the expert search (a student nav link in SPEC.md): redirects to `experts`. */
    tutors: { path: '/search-tutors', getHref: () => '/search-tutors' },
  },

  reportUser: {
    path: '/report-user/:userId',
    getHref: (userId: string) => `/report-user/${encodeURIComponent(userId)}`,
  },

  student: {
    posts: { path: '/student/posts', getHref: () => '/student/posts' },
    /** My Requests with the request form addressed to one tutor ("Ask {name} for help"), in a subject if given. */
    askTutor: {
      path: '/student/posts',
      getHref: (tutorId: string, subjectId?: string) =>
        `/student/posts?${new URLSearchParams({ ask: tutorId, ...(subjectId ? { subject: subjectId } : {}) })}`,
    },
    offers: {
      path: '/student/offers/:requestId',
      getHref: (requestId: string) => `/student/offers/${encodeURIComponent(requestId)}`,
    },
  },

  earnings: { path: '/earnings', getHref: () => '/earnings' },
  payments: { path: '/payments', getHref: () => '/payments' },
  receipt: {
    path: '/payments/:checkoutId/receipt',
    getHref: (checkoutId: string) => `/payments/${encodeURIComponent(checkoutId)}/receipt`,
  },

  teacher: {
    jobs: {
      path: '/teacher/jobs',
      getHref: (highlight?: string) =>
        highlight ? `/teacher/jobs?highlight=${encodeURIComponent(highlight)}` : '/teacher/jobs',
    },
  },

  about: { path: '/about', getHref: () => '/about' },
  contact: { path: '/contact', getHref: () => '/contact' },
  privacyPolicy: { path: '/privacy-policy', getHref: () => '/privacy-policy' },
  terms: { path: '/terms', getHref: () => '/terms' },
  disclaimer: { path: '/disclaimer', getHref: () => '/disclaimer' },

  admin: {
    dashboard: { path: '/admin', getHref: () => '/admin' },
    reports: { path: '/admin/reports', getHref: () => '/admin/reports' },
    illegalContent: { path: '/admin/illegal-content', getHref: () => '/admin/illegal-content' },
    meetingStats: { path: '/admin/meeting-stats', getHref: () => '/admin/meeting-stats' },
    subAdmins: { path: '/admin/sub-admins', getHref: () => '/admin/sub-admins' },
    user: { path: '/admin/users/:userId', getHref: (userId: string) => `/admin/users/${userId}` },
    patterns: { path: '/admin/patterns', getHref: () => '/admin/patterns' },
    contactMessages: { path: '/admin/contact-messages', getHref: () => '/admin/contact-messages' },
    auditLog: { path: '/admin/audit-log', getHref: () => '/admin/audit-log' },
    accountDeletions: { path: '/admin/account-deletions', getHref: () => '/admin/account-deletions' },
    payments: { path: '/admin/payments', getHref: () => '/admin/payments' },
    security: { path: '/admin/security', getHref: () => '/admin/security' },
  },
} as const;
