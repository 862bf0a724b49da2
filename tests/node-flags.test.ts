import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingServiceNodeFlags, SERVICE_NODE_FLAGS } from '@/scripts/node-flags';
import { ROOT } from './support/server-process';

const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe("the service's Node flags (scripts/node-flags.ts)", () => {
  it.each(['start', 'dev'])('npm run %s passes every one to node, before the script', (name) => {
    const command = scripts[name]!;
    const node = command.indexOf('exec node ');
    expect(node, command).toBeGreaterThanOrEqual(0);
    const flags = command.slice(node + 'exec node '.length, command.indexOf('scripts/start.ts')).split(/\s+/);
    for (const flag of SERVICE_NODE_FLAGS) expect(flags, command).toContain(flag);
  });

  it('tells which flags a process was started without', () => {
    expect(missingServiceNodeFlags(['--import', 'tsx'])).toEqual([...SERVICE_NODE_FLAGS]);
    expect(missingServiceNodeFlags([...SERVICE_NODE_FLAGS, '--import', 'tsx'])).toEqual([]);
  });
});
