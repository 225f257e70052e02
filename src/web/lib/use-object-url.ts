import { useEffect, useState } from 'react';

/** A temporary URL showing the file, released when the file changes or the component goes. */
export function useObjectUrl(file: File | undefined | null) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    // The URL is a browser resource made and released with the file, so it is state set by an effect.
    /* eslint-disable react-hooks/set-state-in-effect -- synchronising with URL.createObjectURL, not deriving state */
    if (!file) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    /* eslint-enable react-hooks/set-state-in-effect */
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}
