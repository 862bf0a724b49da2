import { describe, expect, it } from 'vitest';
import { ERROR_TYPES } from '@/app/docs/error-catalog';
import { ERROR_KINDS } from '@/server/errors';

describe('the error pages under /docs/errors', () => {
  it('cover every error kind the API answers with, with its status and title', () => {
    const documented = ERROR_TYPES.map((e) => [e.slug, e.status, e.title]);
    const answered = Object.entries(ERROR_KINDS).map(([slug, { status, title }]) => [slug, status, title]);
    expect(documented.sort()).toEqual(answered.sort());
  });
});
