import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { changedScript, placeScriptRefusal } from '@/app/(console)/_lib/creative-review';
import { linesOf } from '@/app/(console)/_lib/form-values';
import { ProblemError } from '@/app/(console)/_lib/problem';

/*
 * The review forms of the console (issue 38): what a request for changes sends as its script, where
 * a refusal about the script is shown, and how a campaign's lines typed one a line reach the API.
 */

const refusal = (status: number, errors?: { path: string; message: string }[]) =>
  new ProblemError({
    status,
    title: 'Bad request',
    detail: 'The script lacks the campaign’s required line “Use code OWL.”',
    ...(errors ? { errors } : {}),
  });

describe('changedScript', () => {
  it('sends a script only when it reads differently from the revision’s own', () => {
    expect(changedScript('Use code OWL.', 'Use code OWL.')).toBeUndefined();
    expect(changedScript('  Use code OWL.\n', 'Use code OWL.')).toBeUndefined();
    expect(changedScript(undefined, 'Use code OWL.')).toBeUndefined();
    expect(changedScript(' Use code OWL now. ', 'Use code OWL.')).toBe('Use code OWL now.');
  });
});

describe('placeScriptRefusal', () => {
  it('puts a 400 about the script on the script’s field, named by the API or not', () => {
    const placed: string[] = [];
    expect(placeScriptRefusal(refusal(400, [{ path: 'script', message: 'Missing the required line “Use code OWL.”' }]), (m) => placed.push(m))).toBe(
      true,
    );
    expect(placeScriptRefusal(refusal(400), (m) => placed.push(m))).toBe(true);
    expect(placed).toEqual(['Missing the required line “Use code OWL.”', 'The script lacks the campaign’s required line “Use code OWL.”']);
  });

  it('leaves other answers to the form: a 400 about another field, a 409, a 404', () => {
    const placed: string[] = [];
    expect(placeScriptRefusal(refusal(400, [{ path: 'comment', message: 'comment must not be blank' }]), (m) => placed.push(m))).toBe(false);
    expect(placeScriptRefusal(refusal(409), (m) => placed.push(m))).toBe(false);
    expect(placeScriptRefusal(refusal(404), (m) => placed.push(m))).toBe(false);
    expect(placed).toEqual([]);
  });
});

describe('linesOf', () => {
  const lines = linesOf(z.array(z.string().min(1)).max(3));

  it('reads a text box as one item a line, trimmed, blank lines dropped', () => {
    expect(lines.parse('Ten-year warranty\r\n\n   Free returns  \n')).toEqual(['Ten-year warranty', 'Free returns']);
    expect(lines.parse('')).toEqual([]);
  });

  it('keeps the list’s own rules, with the item’s index in an error’s path', () => {
    expect(lines.safeParse('a\nb\nc\nd').success).toBe(false);
    const one = z.object({ points: linesOf(z.array(z.string().max(3))) }).safeParse({ points: 'ok\ntoo long' });
    expect(one.success).toBe(false);
    expect(one.error?.issues[0]?.path).toEqual(['points', 1]);
  });
});
