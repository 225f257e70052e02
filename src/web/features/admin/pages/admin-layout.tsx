import { Outlet } from 'react-router';

/** The admin area's frame (login gate and side menu arrive with the admin feature). */
export function AdminLayout() {
  return <Outlet />;
}
