/**
 * Client-side checks of the forms' rules. Each returns the translation key of the message to
 * show, or null when the form may be sent; a non-null answer means no request is made.
 */
export type MessageKey = string;

const blank = (v: string | null | undefined) => !v || v.trim() === '';

export function validateLogin(f: { username: string; password: string }): MessageKey | null {
  return blank(f.username) || blank(f.password) ? 'login.errors.empty' : null;
}

export interface RegisterFields {
  username: string;
  password: string;
  email: string;
  emailVerificationCode: string;
  invitationCode: string;
}

export function validateRegister(f: RegisterFields): MessageKey | null {
  const all = [f.username, f.password, f.email, f.emailVerificationCode, f.invitationCode];
  return all.some(blank) ? 'register.errors.empty' : null;
}

/** The simple shape the forms accept: no spaces, something@something.something. */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The email-confirm button's check; its message is shown in an error modal. */
export function validateEmailForCode(email: string): MessageKey | null {
  if (blank(email)) return 'register.errors.emailRequired';
  return EMAIL_SHAPE.test(email.trim()) ? null : 'register.errors.emailFormat';
}

export function validateForgot(f: { username: string; email: string; code: string }): MessageKey | null {
  return [f.username, f.email, f.code].some(blank) ? 'forgot.errors.empty' : null;
}

/** Before sending a code the form needs whom to send it to. */
export function validateForgotSend(f: { username: string; email: string }): MessageKey | null {
  return [f.username, f.email].some(blank) ? 'forgot.errors.sendEmpty' : null;
}

export function validateReset(f: { newPassword: string; confirmPassword: string }): MessageKey | null {
  if (blank(f.newPassword) || blank(f.confirmPassword)) return 'reset.errors.empty';
  return f.newPassword === f.confirmPassword ? null : 'reset.errors.mismatch';
}

export function validateInvite(f: { inviteCode: string }): MessageKey | null {
  return blank(f.inviteCode) ? 'invite.errors.empty' : null;
}
