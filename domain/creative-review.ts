/**
 * The review of host-voiced creatives (docs/creative-review.md), without Drizzle or node: the API
 * schemas built from it, and the console's forms, import it too.
 */

/** The shape of a review link's token (`crl_` and 40 base62 characters). */
export const CREATIVE_REVIEW_TOKEN_PATTERN = /^crl_[0-9A-Za-z]{40}$/;

/** How long a review link works (the host's link to approve or request changes of one revision). */
export const REVIEW_LINK_DAYS = 14;

/** The most revisions one offer's creative may have: the request that would make the 21st is a 409. */
export const MAX_CREATIVE_REVISIONS = 20;

/** A request for changes: its comment (required) and the new script (optional: else the script is kept). */
export const REVIEW_COMMENT_MAX_LENGTH = 2000;
export const REVISION_SCRIPT_MAX_LENGTH = 5000;

/** A campaign's talking points (shown to the host) and required lines (read word for word). */
export const MAX_TALKING_POINTS = 20;
export const MAX_REQUIRED_LINES = 10;
export const CAMPAIGN_LINE_MAX_LENGTH = 500;

/** Text with every run of whitespace (spaces, tabs, line breaks) made one space, and none at either end. */
export const collapseWhitespace = (text: string) => text.replace(/\s+/gu, ' ').trim();

const WORD_CHARACTER = /[\p{L}\p{N}\p{M}_]/u;

/**
 * Whether `script` contains `line` word for word: the same words, punctuation and case, in the
 * same order, with whitespace runs counting as one space on either side; and whole words at its
 * edges ("use code POD" is not in "use code PODCAST"). An empty line is in every script.
 */
export function containsLine(script: string, line: string): boolean {
  const needle = collapseWhitespace(line);
  if (needle === '') return true;
  const haystack = collapseWhitespace(script);
  const wordAtStart = WORD_CHARACTER.test(needle[0]!);
  const wordAtEnd = WORD_CHARACTER.test(needle[needle.length - 1]!);
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    const startsClean = !wordAtStart || before === undefined || !WORD_CHARACTER.test(before);
    const endsClean = !wordAtEnd || after === undefined || !WORD_CHARACTER.test(after);
    if (startsClean && endsClean) return true;
  }
  return false;
}

/** The first of `requiredLines` that `script` lacks word for word (`containsLine`), or undefined when it has them all. */
export function missingRequiredLine(script: string, requiredLines: readonly string[]): string | undefined {
  return requiredLines.find((line) => !containsLine(script, line));
}
