import { useCallback, useRef, useState } from 'react';

/**
 * One request at a time per action: a second click or Enter while the first is in flight is
 * ignored (the ref answers at once; the state only after the next render). A task that returns
 * true stays busy, for a success that is about to leave the page.
 */
export function useBusy(): [boolean, (task: () => Promise<boolean | void>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const run = useCallback(async (task: () => Promise<boolean | void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    let stay = false;
    try {
      stay = (await task()) === true;
    } finally {
      if (!stay) {
        running.current = false;
        setBusy(false);
      }
    }
  }, []);
  return [busy, run];
}
