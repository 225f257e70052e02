import type { Role } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';

type NavItem = { label: string; href: string; end?: boolean };

const findTutors: NavItem = { label: 'Find Tutors', href: paths.tutors.getHref() };

/**
 * SPEC.md §2 "Top bar": Home, Chat and About for everyone, plus the role's own pages; a visitor who is signed out
 * (`null`) also gets Find Tutors, which is open to them. `undefined` is not known yet (a frame before the session).
 */
export function getNavItems(role: Role | null | undefined): NavItem[] {
  const roleItems: NavItem[] =
    role === 'student'
      ? [{ label: 'My Requests', href: paths.student.posts.getHref() }, findTutors]
      : role === 'teacher'
        ? [{ label: 'Find Jobs', href: paths.teacher.jobs.getHref() }]
        : role === null
          ? [findTutors]
          : [];
  return [
    { label: 'Home', href: paths.home.getHref(), end: true },
    { label: 'Chat', href: paths.chat.getHref() },
    ...roleItems,
    { label: 'About', href: paths.about.getHref() },
  ];
}
