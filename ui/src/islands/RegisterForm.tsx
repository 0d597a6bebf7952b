// The register screen: username, password, email with the email-confirm
// button (POST /api/send-email), the emailed code, an invitation code, then POST /api/register.
import { useId, useRef, useState } from 'react';
import { BackButton, BusyButton, ErrorBox, FormCard, TextField, preventing, useT } from '../forms/FormParts';
import { useBusy } from '../forms/useBusy';
import { postJson, serverText } from '../forms/api';
import { validateEmailForCode, validateRegister, type RegisterFields } from '../forms/validation';
import { Modal } from '../components/Modal';
import { useIsland } from '../components/IslandRoot';
import { isLang, localizedPath, type Lang } from '../lib/languages';
import { navigate } from '../lib/navigation';
import { readSelectedLanguage } from '../lib/preferences';

type ModalState = { kind: 'error' | 'sendError' | 'sent' | 'failure' | 'success'; message: string } | null;

const EMPTY: RegisterFields = { username: '', password: '', email: '', emailVerificationCode: '', invitationCode: '' };

/** The form's state and its three actions: send the email code, register, close the modal. */
function useRegister(lang: Lang) {
  const t = useT();
  const [fields, setFields] = useState<RegisterFields>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [modal, setModal] = useState<ModalState>(null);
  const [sending, runSend] = useBusy();
  const [busy, run] = useBusy();
  const leaving = useRef(false);
  const set = (key: keyof RegisterFields) => (value: string) => setFields((f) => ({ ...f, [key]: value }));

  const sendCode = () =>
    runSend(async () => {
      const invalid = validateEmailForCode(fields.email);
      if (invalid) {
        setModal({
          kind: 'error',
          message: invalid === 'register.errors.emailRequired' ? t(invalid) : t(invalid),
        });
        return;
      }
      const answer = await postJson('/api/send-email', {
        email: fields.email.trim(),
        username: fields.username.trim(),
        preferredLanguage: readSelectedLanguage() ?? 'en',
      });
      // The answer is only logged; the modal says what happened.
      console.info('send-email', answer.status, answer.data);
      setModal(
        answer.ok ? { kind: 'sent', message: t('register.modal.sent') } : { kind: 'sendError', message: t('register.errors.emailFailed') },
      );
    });

  const submit = () =>
    run(async () => {
      const invalid = validateRegister(fields);
      if (invalid) {
        setError(t(invalid));
        return;
      }
      setError(null);
      const answer = await postJson('/api/register', {
        username: fields.username.trim(),
        password: fields.password,
        email: fields.email.trim(),
        invitationCode: fields.invitationCode.trim(),
        emailVerificationCode: fields.emailVerificationCode.trim(),
      });
      if (answer.ok) {
        console.info('register', answer.data);
        setModal({ kind: 'success', message: t('register.modal.success') });
        return;
      }
      const message = serverText(answer.data, 'error') ?? t('register.errors.failed');
      setError(message);
      setModal({ kind: 'failure', message });
    });

  // Only the success modal leads on to /login, however it is closed (button, confirm, Escape).
  const closeModal = () => {
    if (modal?.kind === 'success' && !leaving.current) {
      leaving.current = true;
      navigate('/login', lang);
    }
    setModal(null);
  };

  return { fields, set, error, modal, sending, busy, sendCode, submit, closeModal };
}

/** The modal of the form: what the email code or the registration came to. */
function RegisterModal({ modal, onClose }: { modal: ModalState; onClose: () => void }) {
  const t = useT();
  const titles: Record<NonNullable<ModalState>['kind'], string> = {
    error: t('register.modal.errorTitle'),
    sendError: t('register.modal.sendErrorTitle'),
    failure: t('register.modal.failureTitle'),
    sent: t('register.modal.sentTitle'),
    success: t('register.modal.successTitle'),
  };
  return (
    <Modal
      open={modal !== null}
      title={modal ? titles[modal.kind] : ''}
      onClose={onClose}
      closeLabel={t('register.modal.close')}
      className={modal?.kind === 'success' || modal?.kind === 'sent' ? 'modal-success' : 'modal-error'}
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('register.modal.confirm')}
        </button>
      }
    >
      <p>{modal?.message}</p>
    </Modal>
  );
}

export default function RegisterForm({ lang: langProp }: { lang?: string }) {
  const t = useT();
  const island = useIsland();
  const lang: Lang = isLang(langProp) ? langProp : island.lang;
  const errorId = useId();
  const { fields, set, error, modal, sending, busy, sendCode, submit, closeModal } = useRegister(lang);
  const field = (name: keyof RegisterFields) => ({
    name,
    value: fields[name],
    onChange: set(name),
    invalid: !!error && !fields[name].trim(),
    errorId,
  });

  return (
    <FormCard title={t('register.title')} subtitle={t('register.subtitle')} back={<BackButton lang={lang} label={t('register.back')} />}>
      <ErrorBox id={errorId} message={error} />
      <form className="form" noValidate onSubmit={preventing(submit)}>
        <TextField label={t('register.username')} {...field('username')} autoComplete="username" />
        <TextField
          label={t('register.password')}
          {...field('password')}
          type="password"
          autoComplete="new-password"
          hint={t('register.passwordRule')}
        />
        <TextField
          label={t('register.email')}
          {...field('email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          addon={
            <BusyButton
              type="button"
              className="button form-addon-button"
              busy={sending}
              label={t('register.sendCode')}
              busyLabel={t('register.sending')}
              onClick={sendCode}
            />
          }
        />
        <TextField label={t('register.emailCode')} {...field('emailVerificationCode')} autoComplete="one-time-code" inputMode="numeric" />
        <TextField label={t('register.invitationCode')} {...field('invitationCode')} autoComplete="off" />
        <BusyButton busy={busy} label={t('register.submit')} busyLabel={t('register.submitting')} />
      </form>
      <nav className="form-links" aria-label={t('register.title')}>
        <a href={localizedPath('/login', lang)}>{t('register.haveAccount')}</a>
      </nav>
      <RegisterModal modal={modal} onClose={closeModal} />
    </FormCard>
  );
}
