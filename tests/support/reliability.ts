import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './server-process';

export const RELIABILITY_DIR = path.join(ROOT, 'test-results', 'reliability');

export interface ReliabilityResult {
  /** What was proven, as a sentence: "20 concurrent same-key POSTs → 1 resource". */
  claim: string;
  /** Measured figures, by name: requests sent, 5xx seen, duplicates… */
  figures: Record<string, string | number>;
}

/**
 * Record what a reliability test measured. `npm run test:reliability`
 * (scripts/reliability.ts) gathers these into docs/RELIABILITY.md; in a plain
 * `npm test` run they are only left under test-results/.
 */
export function reportReliability(id: string, result: ReliabilityResult): void {
  mkdirSync(RELIABILITY_DIR, { recursive: true });
  writeFileSync(path.join(RELIABILITY_DIR, `${id}.json`), JSON.stringify({ id, ...result, at: new Date().toISOString() }, null, 2));
}
