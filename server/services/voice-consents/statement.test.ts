import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { consentStatement, CURRENT_STATEMENT_VERSION, currentStatement } from './statement';

/** Each published statement's SHA-256, as decisions recorded it: a published version is never edited. */
const PUBLISHED: Record<number, string> = {
  1: 'b861c0ee55ffa015a8c148d2cab1d4f24bbf6581e761201d39436b15f261e66c',
};

describe('the consent statement', () => {
  it('keeps every published version word for word (its hash is in the decisions made on it)', () => {
    for (const [version, sha256] of Object.entries(PUBLISHED)) {
      const statement = consentStatement(Number(version))!;
      expect(statement.sha256, `statement version ${version} was edited: publish a new version instead`).toBe(sha256);
      expect(createHash('sha256').update(statement.text, 'utf8').digest('hex')).toBe(sha256);
    }
  });

  it('is current at a published version, and knows no other', () => {
    expect(currentStatement().version).toBe(CURRENT_STATEMENT_VERSION);
    expect(PUBLISHED[CURRENT_STATEMENT_VERSION]).toBeDefined();
    expect(consentStatement(CURRENT_STATEMENT_VERSION + 1)).toBeUndefined();
    expect(consentStatement(0)).toBeUndefined();
  });
});
