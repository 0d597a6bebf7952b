// The register screen: username, password, email with the email-confirm
// button (POST /api/send-email), the emailed code, an invitation code, then POST /api/register.
import { useRef, useState } from 'react';
import { BackButton, BusyButton, ErrorBox, FormCard, SendCodeButton, TextField, preventing, useT } from '../forms/FormParts';
import { useForm, useFormLang } from '../forms/useForm';
import { useBusy } from '../forms/useBusy';
import { postJson, serverText } from '../forms/api';
import { validateEmailForCode, validateRegister, type RegisterFields } from '../forms/validation';
import { Modal } from '../components/Modal';
import { localizedPath, type Lang } from '../lib/languages';
import { navigate } from '../lib/navigation';
import { readSelectedLanguage } from '../lib/preferences';

type ModalState = { kind: 'error' | 'sendError' | 'sent' | 'failure' | 'success'; message: string } | null;

const EMPTY: RegisterFields = { username: '', password: '', email: '', emailVerificationCode: '', invitationCode: '' };

/** The form's state and its three actions: send the email code, register, close the modal. */
function useRegister(lang: Lang) {
  const form = useForm(EMPTY);
  const { t, fields, setError } = form;
  const [modal, setModal] = useState<ModalState>(null);
  const [sending, runSend] = useBusy();
  const leaving = useRef(false);

  const sendCode = () =>
    runSend(async () => {
      const invalid = validateEmailForCode(fields.email);
      if (invalid) {
        setModal({
          kind: 'error',
          message: t(invalid),
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

  const submit = form.submitWith(validateRegister, async (f) => {
    const answer = await postJson('/api/register', {
      username: f.username.trim(),
      password: f.password,
      email: f.email.trim(),
      invitationCode: f.invitationCode.trim(),
      emailVerificationCode: f.emailVerificationCode.trim(),
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

  return { ...form, modal, sending, sendCode, submit, closeModal };
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
  const lang = useFormLang(langProp);
  const { t, error, errorId, modal, sending, busy, bind, sendCode, submit, closeModal } = useRegister(lang);
  const send = <SendCodeButton busy={sending} label={t('register.sendCode')} busyLabel={t('register.sending')} onClick={sendCode} />;

  return (
    <FormCard title={t('register.title')} subtitle={t('register.subtitle')} back={<BackButton lang={lang} label={t('register.back')} />}>
      <ErrorBox id={errorId} message={error} />
      <form className="form" noValidate onSubmit={preventing(submit)}>
        <TextField label={t('register.username')} {...bind('username')} autoComplete="username" />
        <TextField
          label={t('register.password')}
          {...bind('password')}
          type="password"
          autoComplete="new-password"
          hint={t('register.passwordRule')}
        />
        <TextField label={t('register.email')} {...bind('email')} type="email" autoComplete="email" inputMode="email" addon={send} />
        <TextField label={t('register.emailCode')} {...bind('emailVerificationCode')} autoComplete="one-time-code" inputMode="numeric" />
        <TextField label={t('register.invitationCode')} {...bind('invitationCode')} autoComplete="off" />
        <BusyButton busy={busy} label={t('register.submit')} busyLabel={t('register.submitting')} />
      </form>
      <nav className="form-links" aria-label={t('register.title')}>
        <a href={localizedPath('/login', lang)}>{t('register.haveAccount')}</a>
      </nav>
      <RegisterModal modal={modal} onClose={closeModal} />
    </FormCard>
  );
}
