'use client';

import { useQuery } from '@tanstack/react-query';
import { problemOf, problemSentence } from '@/app/(console)/_lib/problem';
import { useTRPC } from '@/app/(console)/_lib/trpc';

/** Shared by the members, API keys and service accounts pages. */

export type Role = 'administrator' | 'read_only';

export const ROLE_OPTIONS: { value: Role; label: string }[] = [
  { value: 'read_only', label: 'Read only' },
  { value: 'administrator', label: 'Administrator' },
];

export function roleLabel(role: string): string {
  return role === 'administrator' ? 'Administrator' : role === 'read_only' ? 'Read only' : role;
}

export const ROLE_HELP = 'Read only sees the network’s resources; an administrator also changes them, manages people and keys.';

export const LAST_ADMINISTRATOR_SENTENCE = 'A network needs at least one administrator — promote someone else first.';

/** problemSentence, with the last-administrator 409 as the plain sentence people understand. */
export function identitySentence(error: unknown, action?: string): string {
  const problem = problemOf(error);
  if (problem.status === 409 && /last active administrator/i.test(problem.detail)) return LAST_ADMINISTRATOR_SENTENCE;
  return problemSentence(error, action);
}

/**
 * Members and service accounts by id (the first 200 of each): to name key owners
 * and fill the owner picker. Read-only keys may list both.
 */
export function useIdentityDirectory(networkId: string) {
  const trpc = useTRPC();
  const members = useQuery(trpc.members.list.queryOptions({ networkId, limit: 200 }));
  const accounts = useQuery(trpc.serviceAccounts.list.queryOptions({ networkId, limit: 200 }));
  const memberByUserId = new Map((members.data?.items ?? []).map((m) => [m.user.id, m]));
  const accountById = new Map((accounts.data?.items ?? []).map((a) => [a.id, a]));
  return { members, accounts, memberByUserId, accountById };
}

/** <input type="datetime-local"> value → ISO 8601 with offset, as the API expects. */
export function localDateTimeToIso(value: string): string {
  return new Date(value).toISOString();
}
