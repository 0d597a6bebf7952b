import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localizedPath, type Lang } from '../lib/languages';

/** The back button goes one page back; a first page in the tab goes home instead. */
export function goBack(lang: Lang): void {
  if (window.history.length > 1) window.history.back();
  else window.location.assign(localizedPath('/', lang));
}

export function BackButton({ lang, label }: { lang: Lang; label: string }) {
  return (
    <button type="button" className="button form-back" onClick={() => goBack(lang)}>
      <span aria-hidden="true">←</span> {label}
    </button>
  );
}

/** The page's heading block of every member form (these pages have no page header of their own). */
export function FormCard({ title, subtitle, back, children }: { title: string; subtitle?: string; back?: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="member-form" aria-labelledby={headingId}>
      {back}
      <h1 id={headingId} className="member-form-title">
        {title}
      </h1>
      {subtitle ? <p className="member-form-subtitle">{subtitle}</p> : null}
      {children}
    </section>
  );
}

/**
 * Always in the DOM, so a message put into it is announced by screen readers (role="alert" is an
 * assertive live region) and the layout does not jump when hydration finds it empty.
 */
export function ErrorBox({ id, message }: { id: string; message: string | null }) {
  return (
    <div id={id} className="error-box form-error" role="alert">
      {message ?? ''}
    </div>
  );
}

/** Polite announcements of progress and success (a sent code, a coming redirect). */
export function StatusBox({ message }: { message: string | null }) {
  return (
    <div className="form-status" role="status">
      {message ?? ''}
    </div>
  );
}

export interface TextFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'password' | 'email';
  autoComplete?: string;
  inputMode?: 'text' | 'numeric' | 'email';
  invalid?: boolean;
  errorId?: string;
  /** A control beside the input (the email-confirm button). */
  addon?: ReactNode;
  /** A rule the value must meet, shown under the field before submission and read with it. */
  hint?: string;
}

export function TextField({
  label,
  name,
  value,
  onChange,
  type = 'text',
  autoComplete,
  inputMode,
  invalid,
  errorId,
  addon,
  hint,
}: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(' ') || undefined;
  const input = useRef<HTMLInputElement>(null);
  const [revealed, setRevealed] = useState(false);
  // The prerendered field can be typed into (or autofilled) before hydration; React keeps that
  // text on screen but not in state, so take it over once, right after hydrating.
  const adopted = useRef(false);
  useEffect(() => {
    if (adopted.current) return;
    adopted.current = true;
    const typed = input.current?.value ?? '';
    if (typed && typed !== value) onChange(typed);
  }, [onChange, value]);
  return (
    <div className="field form-field">
      <div className="field-label-row">
        <label htmlFor={id}>{label}</label>
        {type === 'password' ? <RevealToggle controls={id} revealed={revealed} onToggle={() => setRevealed(!revealed)} /> : null}
      </div>
      <div className={addon ? 'form-control form-control-addon' : 'form-control'}>
        <input
          ref={input}
          id={id}
          name={name}
          type={type === 'password' && revealed ? 'text' : type}
          value={value}
          autoComplete={autoComplete}
          inputMode={inputMode}
          spellCheck={false}
          autoCapitalize="none"
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
        />
        {addon}
      </div>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Shows or hides what was typed in a password field, so a reader can check it before sending.
 * Its name is its visible text (not an aria-label), which says what a press will do; it does
 * nothing without JavaScript, so it is not offered then.
 */
function RevealToggle({ controls, revealed, onToggle }: { controls: string; revealed: boolean; onToggle: () => void }) {
  const t = useT();
  return (
    <button type="button" className="button button-quiet field-reveal needs-js" aria-controls={controls} onClick={onToggle}>
      {revealed ? t('common.hidePassword') : t('common.showPassword')}
    </button>
  );
}

/** A button that shows its busy state; it keeps focus (aria-disabled) and the caller's guard drops repeats. */
export function BusyButton({
  busy,
  label,
  busyLabel,
  type = 'submit',
  onClick,
  className = 'button button-primary',
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  type?: 'submit' | 'button';
  onClick?: () => void;
  className?: string;
}) {
  return (
    <button type={type} className={className} aria-disabled={busy || undefined} aria-busy={busy || undefined} onClick={onClick}>
      {busy ? busyLabel : label}
    </button>
  );
}

/** `onSubmit` without the browser's own navigation. */
export function preventing(handler: () => void) {
  return (e: FormEvent) => {
    e.preventDefault();
    handler();
  };
}

export function useT() {
  return useTranslation().t;
}

/** A query-string parameter of the current page; read only after hydration (never on the server). */
export function queryParam(name: string): string | null {
  if (typeof window === 'undefined') return null;
  return new URLSearchParams(window.location.search).get(name);
}
