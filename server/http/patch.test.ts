import { describe, expect, it } from 'vitest';
import { sentFields } from './patch';

describe('sentFields', () => {
  it('keeps what the client sent, null included (it clears), and leaves out what it did not', () => {
    const changes = sentFields<{ name: string; website: string | null; email: string | null }>({ name: 'Acme', website: null, email: undefined });
    expect(changes).toEqual({ name: 'Acme', website: null });
    expect('email' in changes).toBe(false);
  });

  it('is empty when nothing was sent (the service then answers the resource as it is)', () => {
    expect(sentFields<{ name: string }>({ name: undefined })).toEqual({});
  });
});
