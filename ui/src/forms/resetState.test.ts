import { describe, expect, it } from 'vitest';
import { isResetState } from './resetState';

describe('reset navigation state', () => {
  it('needs both a username and a token', () => {
    expect(isResetState({ username: 'amy', token: 't0k' })).toBe(true);
    expect(isResetState({ username: 'amy' })).toBe(false);
    expect(isResetState({ username: '', token: 't' })).toBe(false);
    expect(isResetState({ username: 'amy', token: 5 })).toBe(false);
    expect(isResetState(null)).toBe(false);
    expect(isResetState('amy')).toBe(false);
  });
});
