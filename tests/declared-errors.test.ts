import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { ErrorKind } from '@/server/errors';
import type { RouteMeta } from '@/server/trpc';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUTERS = path.join(ROOT, 'server', 'routers');

/** The helpers of server/errors.ts and optimistic-lock.ts, by the kind they throw. */
const HELPER_KINDS: Record<string, ErrorKind> = {
  badRequest: 'bad-request',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not-found',
  found: 'not-found',
  conflict: 'conflict',
  modifiedConcurrently: 'conflict',
  versionToWrite: 'conflict',
};

/**
 * Every AppError kind a procedure's handler can throw: its own code and, transitively, every
 * function of ours it calls in server/services, server/routers, server/http, server/auth,
 * server/synth and server/jobs, resolved with the type checker. The gate (server/trpc.ts) is not
 * followed: its errors are the gate's.
 */
function thrownKinds(checker: ts.TypeChecker, start: ts.Node): Set<ErrorKind> {
  const kinds = new Set<ErrorKind>();
  const seen = new Set<ts.Node>();
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && node.expression.getText() === 'AppError') {
      const [kind] = node.arguments ?? [];
      if (kind && ts.isStringLiteral(kind)) kinds.add(kind.text as ErrorKind);
    }
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
      let symbol = checker.getSymbolAtLocation(callee);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const declaration = symbol?.declarations?.[0];
      const file = declaration?.getSourceFile().fileName ?? '';
      const helper = HELPER_KINDS[callee.getText()];
      if (helper && /\/server\/(errors|services\/optimistic-lock)\.ts$/.test(file)) kinds.add(helper);
      else if (declaration && /\/server\/(services|routers|http|auth|synth|jobs)\//.test(file) && !seen.has(declaration)) {
        seen.add(declaration);
        visit(declaration);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(start);
  return kinds;
}

function procedureFiles(): string[] {
  return readdirSync(ROUTERS, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !/(\.types|\.test|router|index)\.ts$/.test(f))
    .map((f) => path.join(ROUTERS, f));
}

describe('the error responses each operation declares (RouteMeta.errors)', () => {
  it('are exactly the kinds its handler and services can throw, so the document neither misses nor invents one', async () => {
    const files = procedureFiles();
    const program = ts.createProgram(files, {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      paths: { '@/*': ['./*'] },
      baseUrl: ROOT,
      strict: true,
      noEmit: true,
    });
    const checker = program.getTypeChecker();
    const mismatches: string[] = [];
    let procedures = 0;
    for (const file of files) {
      const module = (await import(file)) as Record<string, { _def: { meta?: RouteMeta } }>;
      for (const statement of program.getSourceFile(file)!.statements) {
        if (!ts.isVariableStatement(statement)) continue;
        for (const declaration of statement.declarationList.declarations) {
          const name = declaration.name.getText();
          const meta = module[name]?._def.meta;
          if (!meta?.openapi) continue;
          procedures++;
          // Bad input is declared for every operation; a service's own 400 adds nothing to it.
          const thrown = [...thrownKinds(checker, declaration.initializer!)].filter((k) => k !== 'bad-request').sort();
          const declared = Object.keys(meta.errors ?? {})
            .filter((k) => k !== 'bad-request')
            .sort();
          if (thrown.join() !== declared.join()) mismatches.push(`${name}: throws [${thrown.join(', ')}], declares [${declared.join(', ')}]`);
        }
      }
    }
    expect(procedures).toBeGreaterThan(60);
    expect(mismatches).toEqual([]);
  }, 120_000);
});
