// The login screen: username + password to POST /api/denglu, Google sign-in,
// links to the forgot-password and register screens.
import { useEffect, useId, useState } from 'react';
import { BackButton, BusyButton, ErrorBox, FormCard, TextField, preventing, queryParam, useT } from '../forms/FormParts';
import { useBusy } from '../forms/useBusy';
import { postJson } from '../forms/api';
import { validateLogin } from '../forms/validation';
import { useIsland } from '../components/IslandRoot';
import { isLang, localizedPath, type Lang } from '../lib/languages';
import { navigate } from '../lib/navigation';
import { markLoggedIn } from '../lib/session';

/** Where the Google button goes: a plain navigation, the API answers with the redirect. */
export const GOOGLE_SIGN_IN_PATH = '/api/auth/google';

export default function LoginForm({ lang: langProp }: { lang?: string }) {
  const t = useT();
  const island = useIsland();
  const lang: Lang = isLang(langProp) ? langProp : island.lang;
  const errorId = useId();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useBusy();

  // The API sends a visitor back here with ?error=google_unavailable when Google is not set up,
  // ?error=google_failed when the sign-in at Google did not complete, and
  // ?error=google_link_password when the Google account's address is a member's but only the
  // member's password can prove it is theirs (that login then links the Google account).
  useEffect(() => {
    const reason = queryParam('error');
    if (reason === 'google_unavailable') {
      setError(t('login.errors.googleUnavailable'));
    } else if (reason === 'google_failed') {
      setError(t('login.errors.googleFailed'));
    } else if (reason === 'google_link_password') {
      setError(t('login.errors.googleLinkPassword'));
    }
  }, [t]);

  const submit = () =>
    run(async () => {
      const invalid = validateLogin({ username, password });
      if (invalid) {
        setError(t(invalid));
        return;
      }
      setError(null);
      const answer = await postJson('/api/denglu', { username, password });
      if (answer.ok && answer.data.loggedIn !== false) {
        markLoggedIn();
        navigate('/MemberPage', lang);
        return true;
      }
      setError(t('login.errors.failed'));
    });

  return (
    <FormCard title={t('login.title')} subtitle={t('login.subtitle')} back={<BackButton lang={lang} label={t('login.back')} />}>
      <ErrorBox id={errorId} message={error} />
      <form className="form" noValidate onSubmit={preventing(submit)}>
        <TextField
          label={t('login.username')}
          name="username"
          value={username}
          onChange={setUsername}
          autoComplete="username"
          invalid={!!error && !username.trim()}
          errorId={errorId}
        />
        <TextField
          label={t('login.password')}
          name="password"
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          invalid={!!error && !password}
          errorId={errorId}
        />
        <BusyButton busy={busy} label={t('login.submit')} busyLabel={t('login.submitting')} />
      </form>
      <p className="form-divider">
        <span>{t('login.or')}</span>
      </p>
      <a className="button button-google" href={GOOGLE_SIGN_IN_PATH}>
        <svg className="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path fill="#4285F4" d="M21.6 12.2c0-.7-.1-1.4-.2-2H12v3.8h5.4a4.6 4.6 0 0 1-2 3v2.5h3.2c1.9-1.7 3-4.3 3-7.3Z" />
          <path fill="#34A853" d="M12 22c2.7 0 5-.9 6.6-2.4l-3.2-2.5c-.9.6-2 1-3.4 1-2.6 0-4.8-1.8-5.6-4.1H3.1v2.6A10 10 0 0 0 12 22Z" />
          <path fill="#FBBC05" d="M6.4 14c-.2-.6-.3-1.3-.3-2s.1-1.4.3-2V7.4H3.1a10 10 0 0 0 0 9.2L6.4 14Z" />
          <path fill="#EA4335" d="M12 6c1.5 0 2.8.5 3.8 1.5l2.9-2.9A10 10 0 0 0 3.1 7.4L6.4 10C7.2 7.7 9.4 6 12 6Z" />
        </svg>
        {t('login.google')}
      </a>
      <nav className="form-links" aria-label={t('login.title')}>
        <a href={localizedPath('/verifycode', lang)}>{t('login.forgot')}</a>
        <a href={localizedPath('/register', lang)}>{t('login.register')}</a>
      </nav>
    </FormCard>
  );
}
