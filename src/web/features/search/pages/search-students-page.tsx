import { VhSearch } from '../components/vh-search.tsx';

export function SearchStudentsPage() {
  return <VhSearch kind="students" />;
}
