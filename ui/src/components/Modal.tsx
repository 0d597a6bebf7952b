// A modal dialog on the native <dialog>: the browser keeps focus inside and makes the page inert;
// Escape closes it; focus goes back where it was.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface ModalProps {
  open: boolean;
  title: ReactNode;
  children?: ReactNode;
  /** Called on the close button, Escape, and any other way the dialog closes. */
  onClose: () => void;
  /** Extra buttons beside the close button (e.g. a confirm button). */
  actions?: ReactNode;
  closeLabel?: string;
  className?: string;
  /** Opens with focus on the close button: a confirmation of something that cannot be undone
   *  starts on the safe choice. */
  focusClose?: boolean;
}

export function Modal({ open, title, children, onClose, actions, closeLabel, className, focusClose }: ModalProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<Element | null>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocus.current = document.activeElement;
      dialog.showModal();
      if (focusClose) closeButton.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, focusClose]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const handleClose = () => {
      const target = returnFocus.current;
      if (target instanceof HTMLElement && target.isConnected) target.focus();
      onCloseRef.current();
    };
    dialog.addEventListener('close', handleClose);
    return () => dialog.removeEventListener('close', handleClose);
  }, []);

  return (
    <dialog ref={ref} className={`modal${className ? ` ${className}` : ''}`} aria-labelledby={titleId}>
      <h2 className="modal-title" id={titleId}>
        {title}
      </h2>
      <div className="modal-body">{children}</div>
      <div className="modal-actions">
        {actions}
        <button ref={closeButton} type="button" className="button button-primary" onClick={() => ref.current?.close()}>
          {closeLabel ?? t('modal.close')}
        </button>
      </div>
    </dialog>
  );
}
