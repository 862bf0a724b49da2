export const ROLES = ['read_only', 'administrator'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { read_only: 0, administrator: 1 };

export function roleAtLeast(have: Role, need: Role): boolean {
  return RANK[have] >= RANK[need];
}

export function minRole(a: Role, b: Role): Role {
  return RANK[a] <= RANK[b] ? a : b;
}
