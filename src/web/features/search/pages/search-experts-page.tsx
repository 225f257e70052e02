import { VhSearch } from '../components/vh-search.tsx';

export function SearchExpertsPage() {
  return <VhSearch kind="experts" />;
}
