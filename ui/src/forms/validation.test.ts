import { describe, expect, it } from 'vitest';
import {
  validateEmailForCode,
  validateForgot,
  validateForgotSend,
  validateInvite,
  validateLogin,
  validateRegister,
  validateReset,
} from './validation';

describe('login', () => {
  it('needs username and password', () => {
    expect(validateLogin({ username: '', password: 'x' })).toBe('login.errors.empty');
    expect(validateLogin({ username: 'u', password: '' })).toBe('login.errors.empty');
    expect(validateLogin({ username: '  ', password: ' ' })).toBe('login.errors.empty');
    expect(validateLogin({ username: 'u', password: 'p' })).toBeNull();
  });
});

describe('register', () => {
  const full = { username: 'u', password: 'p', email: 'a@b.co', emailVerificationCode: '123456', invitationCode: 'INV' };
  it('needs all five fields', () => {
    expect(validateRegister(full)).toBeNull();
    for (const key of Object.keys(full) as (keyof typeof full)[]) {
      expect(validateRegister({ ...full, [key]: '' })).toBe('register.errors.empty');
    }
  });

  it('checks the email before sending a code', () => {
    expect(validateEmailForCode('')).toBe('register.errors.emailRequired');
    expect(validateEmailForCode('   ')).toBe('register.errors.emailRequired');
    for (const bad of ['plain', 'a@b', 'a b@c.d', 'a@b c.d', '@b.c', 'a@.c', 'a@b.']) {
      expect(validateEmailForCode(bad), bad).toBe('register.errors.emailFormat');
    }
    expect(validateEmailForCode('someone@example.com')).toBeNull();
    expect(validateEmailForCode('a.b+c@sub.example.co.jp')).toBeNull();
  });
});

describe('forgot password', () => {
  it('needs username, email and code to verify', () => {
    expect(validateForgot({ username: 'u', email: 'e@x.y', code: '1' })).toBeNull();
    expect(validateForgot({ username: '', email: 'e@x.y', code: '1' })).toBe('forgot.errors.empty');
    expect(validateForgot({ username: 'u', email: '', code: '1' })).toBe('forgot.errors.empty');
    expect(validateForgot({ username: 'u', email: 'e@x.y', code: '' })).toBe('forgot.errors.empty');
  });

  it('needs username and email to send a code', () => {
    expect(validateForgotSend({ username: 'u', email: '' })).toBe('forgot.errors.sendEmpty');
    expect(validateForgotSend({ username: 'u', email: 'e@x.y' })).toBeNull();
  });
});

describe('reset password', () => {
  it('needs the two passwords to match', () => {
    expect(validateReset({ newPassword: 'abc', confirmPassword: 'abd' })).toBe('reset.errors.mismatch');
    expect(validateReset({ newPassword: 'abc', confirmPassword: 'abc' })).toBeNull();
    expect(validateReset({ newPassword: '', confirmPassword: '' })).toBe('reset.errors.empty');
  });
});

describe('invite', () => {
  it('needs the invitation code', () => {
    expect(validateInvite({ inviteCode: '' })).toBe('invite.errors.empty');
    expect(validateInvite({ inviteCode: 'ABC' })).toBeNull();
  });
});
