import { describe, expect, it } from 'vitest';
import { collapseWhitespace, containsLine, CREATIVE_REVIEW_TOKEN_PATTERN, missingRequiredLine } from './creative-review';

describe('required lines: a script must contain each word for word', () => {
  const script = 'Sleep better tonight with Acme.\nUse code  POD for 20% off.\tTerms apply, see acme.example/terms.';

  it('finds a line whatever whitespace runs separate its words, in the script or in the line', () => {
    expect(containsLine(script, 'Use code POD for 20% off.')).toBe(true);
    expect(containsLine(script, '  Use code\nPOD   for 20% off. ')).toBe(true);
    expect(containsLine(script, 'off. Terms apply,')).toBe(true);
    expect(containsLine(script, 'Terms apply, see acme.example/terms.')).toBe(true);
  });

  it('keeps case, punctuation and order', () => {
    expect(containsLine(script, 'use code POD for 20% off.')).toBe(false);
    expect(containsLine(script, 'Use code POD for 20% off')).toBe(true); // a prefix of the sentence is still word for word
    expect(containsLine(script, 'Use code POD, for 20% off.')).toBe(false);
    expect(containsLine(script, 'code Use POD')).toBe(false);
    expect(containsLine(script, 'Terms apply.')).toBe(false);
  });

  it('matches whole words at the line’s edges only', () => {
    expect(containsLine('Use code PODCAST today.', 'Use code POD')).toBe(false);
    expect(containsLine('Reuse code POD today.', 'use code POD')).toBe(false);
    expect(containsLine('Use code POD, then PODCAST.', 'code POD')).toBe(true);
    // A later occurrence counts when an earlier one is inside a word.
    expect(containsLine('PODCAST fans: POD is the code.', 'POD')).toBe(true);
    // Edges that are punctuation need no boundary.
    expect(containsLine('See terms.Apply now', 'terms.')).toBe(true);
    expect(containsLine('Café au lait', 'Caf')).toBe(false);
  });

  it('names the first line missing, or none', () => {
    expect(missingRequiredLine(script, [])).toBeUndefined();
    expect(missingRequiredLine(script, ['Use code POD for 20% off.', 'Terms apply,'])).toBeUndefined();
    expect(missingRequiredLine(script, ['Use code POD for 20% off.', 'Not a bank.', 'Also missing.'])).toBe('Not a bank.');
    expect(missingRequiredLine('', ['Terms apply.'])).toBe('Terms apply.');
  });

  it('collapses whitespace runs to one space and trims', () => {
    expect(collapseWhitespace('  a \n\t b  c ')).toBe('a b c');
    expect(collapseWhitespace('a\u00a0\u00a0b')).toBe('a b');
  });
});

describe('review link tokens', () => {
  it('are crl_ and 40 base62 characters', () => {
    expect(CREATIVE_REVIEW_TOKEN_PATTERN.test('crl_' + 'aZ09'.repeat(10))).toBe(true);
    expect(CREATIVE_REVIEW_TOKEN_PATTERN.test('crl_' + 'a'.repeat(39))).toBe(false);
    expect(CREATIVE_REVIEW_TOKEN_PATTERN.test('vcl_' + 'a'.repeat(40))).toBe(false);
    expect(CREATIVE_REVIEW_TOKEN_PATTERN.test('crl_' + 'a'.repeat(39) + '-')).toBe(false);
  });
});
