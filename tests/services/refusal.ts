import { expect } from 'vitest';
import { AppError } from '@/server/errors';

/** The AppError a service call was refused with (and a failed assertion when it was not refused). */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
