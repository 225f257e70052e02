import type { Role } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';

type NavItem = { label: string; href: string; end?: boolean };

/** SPEC.md §2 "Top bar": Home, Chat and About for everyone, plus the role's own pages. */
export function getNavItems(role: Role | null | undefined): NavItem[] {
  const roleItems: NavItem[] =
    role === 'student'
      ? [
          { label: 'My Requests', href: paths.student.posts.getHref() },
          { label: 'Find Tutors', href: paths.tutors.getHref() },
        ]
      : role === 'teacher'
        ? [{ label: 'Find Jobs', href: paths.teacher.jobs.getHref() }]
        : [];
  return [
    { label: 'Home', href: paths.home.getHref(), end: true },
    { label: 'Chat', href: paths.chat.getHref() },
    ...roleItems,
    { label: 'About', href: paths.about.getHref() },
  ];
}
