import type { CreativeReviewer, CreativeStatus } from '@/domain/statuses';
import { problemOf } from './problem';

/*
 * The review of a creative's revision (issue 38), in words and forms shared by the administrators'
 * dialogs (creatives, review queue) and the host's review page.
 */

/**
 * The new script to send: undefined (the script is kept) when the box reads as the old one, whitespace
 * at the ends aside, or was emptied (the form's schema reads an empty box as not given).
 */
export const changedScript = (script: string | undefined, old: string) =>
  script === undefined || script.trim() === old.trim() ? undefined : script.trim();

/**
 * A 400 about the script (a required line missing): on the script's field, where the reader fixes
 * it, whether or not the API named the field. False for any other answer (the form shows it).
 */
export function placeScriptRefusal(error: unknown, setScriptError: (message: string) => void): boolean {
  const problem = problemOf(error);
  if (problem.status !== 400) return false;
  const onScript = problem.errors?.find((e) => e.path === 'script' || e.path.startsWith('script.'));
  if (problem.errors?.length && !onScript) return false;
  setScriptError(onScript?.message ?? problem.detail);
  return true;
}

/** Who reviewed, in words: the host themselves, or an administrator on their behalf. */
export const reviewerInWords = (by: CreativeReviewer) => (by === 'host' ? 'the host' : 'an administrator, on the host’s behalf');

/**
 * What a review decided, from the revision's state: a revision whose changes were requested stays
 * `changes_requested`; any other reviewed one was approved (and may have gone back to waiting for
 * consent since, when the consent was revoked).
 */
export const reviewVerb = (status: CreativeStatus) => (status === 'changes_requested' ? 'Changes requested' : 'Approved');
