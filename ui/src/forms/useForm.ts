// What every member form has: the page language, its fields as one state object, the error it
// shows, one request at a time, and a submit that checks the fields before it asks the API.
import { useId, useState } from 'react';
import { useIsland } from '../components/IslandRoot';
import { isLang, type Lang } from '../lib/languages';
import { useT } from './FormParts';
import { useBusy } from './useBusy';
import type { MessageKey } from './validation';

/** The `lang` prop if it names a language, else the page's. */
export function useFormLang(langProp: string | undefined): Lang {
  const island = useIsland();
  return isLang(langProp) ? langProp : island.lang;
}

export function useForm<F extends { [K in keyof F]: string }>(empty: F) {
  const t = useT();
  const errorId = useId();
  const [fields, setFields] = useState<F>(empty);
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useBusy();
  const set = (name: keyof F) => (value: string) => setFields((f) => ({ ...f, [name]: value }));

  /** A TextField's binding to field `name`; marked invalid, by default, while an error shows and it is blank. */
  const bind = (name: keyof F & string, invalid = !!error && !fields[name].trim()) => ({
    name,
    value: fields[name],
    onChange: set(name),
    invalid,
    errorId,
  });

  /** A submit that shows what `check` finds, or clears the error and runs `action` (true: stay busy, the page is leaving). */
  const submitWith = (check: (f: F) => MessageKey | null, action: (f: F) => Promise<boolean | void>) => () =>
    run(async () => {
      const invalid = check(fields);
      if (invalid) {
        setError(t(invalid));
        return;
      }
      setError(null);
      return action(fields);
    });

  return { t, fields, error, setError, errorId, busy, bind, submitWith };
}
