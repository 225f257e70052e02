import { Spinner } from '#web/components/ui/spinner.tsx';

/** Shown in the page area while a page's code is loading. */
export function PageFallback() {
  return (
    <div className="flex flex-1 items-center justify-center py-24">
      <Spinner label="Loading page" className="size-8 text-primary" />
    </div>
  );
}
