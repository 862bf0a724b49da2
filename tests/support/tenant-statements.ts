/**
 * Does a SQL statement name its network? The rule behind docs/SCALING.md's Citus plan and the
 * second fence between tenants (docs/ARCHITECTURE.md, "Every statement on a tenant table names its
 * network"), checked on the statement's parse tree — Postgres' own parser, compiled to WebAssembly
 * (`libpg-query`) — rather than on its text:
 *
 * - every reference to a tenant relation in FROM, JOIN, UPDATE or DELETE … USING is constrained
 *   by that relation's own `network_id`: an equality with a parameter (`c.network_id = $1`,
 *   `$1::text = c.network_id`), or an equality with the `network_id` of another reference that
 *   is constrained (a join on the network, in the same query or from an enclosing one) — in the
 *   WHERE clause, or in the ON clause of a join that filters that side;
 * - every INSERT into a tenant relation sets `network_id`.
 *
 * A tenant relation is every table (or view) of db/schema/* with a `network_id` column.
 * A conjunct counts only at the top of the AND tree it is in: `a or c.network_id = $1` does not
 * constrain `c`, nor does a `network_id` inside a subquery over another table.
 */
import { is } from 'drizzle-orm';
import { getTableConfig, getViewConfig, PgTable, PgView } from 'drizzle-orm/pg-core';
import { loadModule, parseSync, type Node } from 'libpg-query';
import * as schema from '@/db/schema';

/** Relations of db/schema/* that have a `network_id` column. */
export function tenantRelations(): Set<string> {
  const names = new Set<string>();
  for (const value of Object.values(schema)) {
    if (is(value, PgTable)) {
      const config = getTableConfig(value);
      if (config.columns.some((c) => c.name === 'network_id')) names.add(config.name);
    } else if (is(value, PgView)) {
      const config = getViewConfig(value);
      const columns = Object.values(config.selectedFields as Record<string, { name?: string }>);
      if (columns.some((c) => c.name === 'network_id')) names.add(config.name);
    }
  }
  return names;
}

/** Load the parser once (WebAssembly) before `unroutedReferences`. */
export const loadSqlParser = loadModule;

/** One reference to a tenant relation that does not name its network. */
export interface Unrouted {
  relation: string;
  /** `read`: FROM/JOIN/USING; `update`/`delete`: the statement's target; `insert`: no network_id column set. */
  how: 'read' | 'update' | 'delete' | 'insert';
}

interface Ref {
  relation: string;
  /** The name columns use for it: its alias, else its relation name. */
  name: string;
  tenant: boolean;
  constrained: boolean;
}

interface Scope {
  refs: Ref[];
  parent: Scope | undefined;
  /** CTE names visible here: a reference to one is not a table. */
  ctes: ReadonlySet<string>;
}

/** A conjunct, and the references of its scope that it may constrain. */
interface Condition {
  expr: Node;
  over: readonly Ref[];
}

const NETWORK_COLUMN = 'network_id';

/** Every reference to a tenant relation in `sql` (one or more statements) that does not name its network. */
export function unroutedReferences(sql: string, tenant: ReadonlySet<string>): Unrouted[] {
  const found: Unrouted[] = [];
  const checker = new Checker(tenant, found);
  for (const raw of parseSync(sql).stmts ?? []) if (raw.stmt) checker.statement(raw.stmt, undefined, new Set());
  return found;
}

class Checker {
  constructor(
    private readonly tenant: ReadonlySet<string>,
    private readonly found: Unrouted[],
  ) {}

  statement(node: Node, parent: Scope | undefined, ctes: ReadonlySet<string>): void {
    if ('SelectStmt' in node) this.select(node.SelectStmt, parent, ctes);
    else if ('InsertStmt' in node) this.insert(node.InsertStmt, parent, ctes);
    else if ('UpdateStmt' in node) this.update(node.UpdateStmt, parent, ctes);
    else if ('DeleteStmt' in node) this.delete(node.DeleteStmt, parent, ctes);
    // Anything else (BEGIN, SET, LISTEN…) reads no table.
  }

  /** CTEs are checked as statements of their own; their names hide tables of the same name after them. */
  private withClause(clause: { ctes?: Node[] } | undefined, parent: Scope | undefined, ctes: ReadonlySet<string>): ReadonlySet<string> {
    const visible = new Set(ctes);
    for (const item of clause?.ctes ?? []) {
      if (!('CommonTableExpr' in item)) continue;
      const cte = item.CommonTableExpr;
      if (cte.ctequery) this.statement(cte.ctequery, parent, visible);
      if (cte.ctename) visible.add(cte.ctename);
    }
    return visible;
  }

  private select(stmt: SelectStmtNode, parent: Scope | undefined, outerCtes: ReadonlySet<string>): void {
    const ctes = this.withClause(stmt.withClause, parent, outerCtes);
    if (stmt.op && stmt.op !== 'SETOP_NONE') {
      if (stmt.larg) this.select(stmt.larg, parent, ctes);
      if (stmt.rarg) this.select(stmt.rarg, parent, ctes);
      return;
    }
    const scope: Scope = { refs: [], parent, ctes };
    const conditions: Condition[] = [];
    const expressions: Node[] = [];
    for (const item of stmt.fromClause ?? []) this.fromItem(item, scope, conditions, expressions);
    if (stmt.whereClause) conditions.push(...conjuncts(stmt.whereClause).map((expr) => ({ expr, over: scope.refs })));
    this.settle(scope, conditions);
    for (const ref of scope.refs) if (ref.tenant && !ref.constrained) this.found.push({ relation: ref.relation, how: 'read' });
    this.subqueries(
      [
        ...(stmt.targetList ?? []),
        stmt.whereClause,
        stmt.havingClause,
        ...(stmt.groupClause ?? []),
        ...(stmt.sortClause ?? []),
        ...(stmt.distinctClause ?? []),
        ...(stmt.valuesLists ?? []),
        stmt.limitCount,
        stmt.limitOffset,
        ...expressions,
      ],
      scope,
    );
  }

  private insert(stmt: InsertStmtNode, parent: Scope | undefined, outerCtes: ReadonlySet<string>): void {
    const ctes = this.withClause(stmt.withClause, parent, outerCtes);
    const relation = stmt.relation?.relname;
    if (relation && this.isTenant(stmt.relation!, ctes)) {
      const columns = (stmt.cols ?? []).flatMap((c) => ('ResTarget' in c && c.ResTarget.name ? [c.ResTarget.name] : []));
      // No column list: the values fill every column, network_id included.
      if (columns.length > 0 && !columns.includes(NETWORK_COLUMN)) this.found.push({ relation, how: 'insert' });
    }
    if (stmt.selectStmt) this.statement(stmt.selectStmt, parent, ctes);
    const scope: Scope = { refs: [], parent, ctes };
    this.subqueries(
      [...(stmt.onConflictClause?.targetList ?? []), stmt.onConflictClause?.whereClause, ...(stmt.returningClause?.exprs ?? [])],
      scope,
    );
  }

  private update(stmt: UpdateStmtNode, parent: Scope | undefined, outerCtes: ReadonlySet<string>): void {
    const ctes = this.withClause(stmt.withClause, parent, outerCtes);
    this.targeted(
      'update',
      stmt.relation,
      stmt.fromClause,
      stmt.whereClause,
      [...(stmt.targetList ?? []), ...(stmt.returningClause?.exprs ?? [])],
      parent,
      ctes,
    );
  }

  private delete(stmt: DeleteStmtNode, parent: Scope | undefined, outerCtes: ReadonlySet<string>): void {
    const ctes = this.withClause(stmt.withClause, parent, outerCtes);
    this.targeted('delete', stmt.relation, stmt.usingClause, stmt.whereClause, stmt.returningClause?.exprs ?? [], parent, ctes);
  }

  /** UPDATE … FROM … WHERE and DELETE … USING … WHERE: the target and the other relations share the WHERE clause. */
  private targeted(
    how: 'update' | 'delete',
    relation: RangeVarNode | undefined,
    from: Node[] | undefined,
    where: Node | undefined,
    more: Node[],
    parent: Scope | undefined,
    ctes: ReadonlySet<string>,
  ): void {
    const scope: Scope = { refs: [], parent, ctes };
    const conditions: Condition[] = [];
    const expressions: Node[] = [];
    const target = relation ? this.rangeVar(relation, scope) : undefined;
    for (const item of from ?? []) this.fromItem(item, scope, conditions, expressions);
    if (where) conditions.push(...conjuncts(where).map((expr) => ({ expr, over: scope.refs })));
    this.settle(scope, conditions);
    for (const ref of scope.refs) if (ref.tenant && !ref.constrained) this.found.push({ relation: ref.relation, how: ref === target ? how : 'read' });
    this.subqueries([where, ...more, ...expressions], scope);
  }

  private isTenant(range: RangeVarNode, ctes: ReadonlySet<string>): boolean {
    const name = range.relname ?? '';
    if (!range.schemaname && ctes.has(name)) return false;
    return (range.schemaname === undefined || range.schemaname === 'public') && this.tenant.has(name);
  }

  private rangeVar(range: RangeVarNode, scope: Scope): Ref {
    const relation = range.relname ?? '';
    const ref: Ref = { relation, name: range.alias?.aliasname ?? relation, tenant: this.isTenant(range, scope.ctes), constrained: false };
    scope.refs.push(ref);
    return ref;
  }

  /** One item of FROM (or USING): its references join the scope; the ON clauses of joins become conditions. */
  private fromItem(item: Node, scope: Scope, conditions: Condition[], expressions: Node[]): Ref[] {
    if ('RangeVar' in item) return [this.rangeVar(item.RangeVar, scope)];
    if ('JoinExpr' in item) {
      const join = item.JoinExpr;
      const left = join.larg ? this.fromItem(join.larg, scope, conditions, expressions) : [];
      const right = join.rarg ? this.fromItem(join.rarg, scope, conditions, expressions) : [];
      if (join.quals) {
        expressions.push(join.quals);
        // An outer join's ON filters only the side that may come back empty; a full join's neither.
        const filtered: Record<string, Ref[]> = { JOIN_INNER: [...left, ...right], JOIN_LEFT: right, JOIN_RIGHT: left };
        const over = filtered[join.jointype ?? ''] ?? [];
        conditions.push(...conjuncts(join.quals).map((expr) => ({ expr, over })));
      }
      return [...left, ...right];
    }
    if ('RangeSubselect' in item) {
      const sub = item.RangeSubselect;
      // A LATERAL subquery sees the references before it.
      if (sub.subquery) this.statement(sub.subquery, sub.lateral ? scope : scope.parent, scope.ctes);
      const ref: Ref = { relation: '(subquery)', name: sub.alias?.aliasname ?? '', tenant: false, constrained: false };
      scope.refs.push(ref);
      return [ref];
    }
    if ('RangeFunction' in item) {
      expressions.push(...(item.RangeFunction.functions ?? []));
      const ref: Ref = { relation: '(function)', name: item.RangeFunction.alias?.aliasname ?? '', tenant: false, constrained: false };
      scope.refs.push(ref);
      return [ref];
    }
    return [];
  }

  /** Mark constrained references until nothing changes (a join chain passes the constraint along). */
  private settle(scope: Scope, conditions: Condition[]): void {
    for (let changed = true; changed;) {
      changed = false;
      for (const { expr, over } of conditions) {
        const sides = networkEquality(expr);
        if (!sides) continue;
        const [a, b] = sides.map((side) => (side === 'parameter' ? 'parameter' : resolve(scope, side)));
        for (const [mine, other] of [
          [a, b],
          [b, a],
        ] as const) {
          if (typeof mine !== 'object' || !mine || mine.constrained || !over.includes(mine)) continue;
          if (other === 'parameter' || (typeof other === 'object' && other?.constrained)) {
            mine.constrained = true;
            changed = true;
          }
        }
      }
    }
  }

  /** Check the subqueries (SubLinks) found in expressions of this scope: they see its references. */
  private subqueries(nodes: Array<Node | undefined>, scope: Scope): void {
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (!value || typeof value !== 'object') return;
      if ('SubLink' in value) {
        const link = (value as { SubLink: { subselect?: Node; testexpr?: Node } }).SubLink;
        if (link.subselect) this.statement(link.subselect, scope, scope.ctes);
        visit(link.testexpr);
        return;
      }
      Object.values(value).forEach(visit);
    };
    nodes.forEach(visit);
  }
}

type SelectStmtNode = Extract<Node, { SelectStmt: unknown }>['SelectStmt'];
type InsertStmtNode = Extract<Node, { InsertStmt: unknown }>['InsertStmt'];
type UpdateStmtNode = Extract<Node, { UpdateStmt: unknown }>['UpdateStmt'];
type DeleteStmtNode = Extract<Node, { DeleteStmt: unknown }>['DeleteStmt'];
type RangeVarNode = Extract<Node, { RangeVar: unknown }>['RangeVar'];

/** The conjuncts at the top of an AND tree. */
function conjuncts(expr: Node): Node[] {
  if ('BoolExpr' in expr && expr.BoolExpr.boolop === 'AND_EXPR') return (expr.BoolExpr.args ?? []).flatMap(conjuncts);
  return [expr];
}

/** A column reference as its qualifier and column name (qualifier undefined when bare). */
interface Column {
  qualifier: string | undefined;
  column: string;
}

function columnOf(node: Node | undefined): Column | undefined {
  if (!node || !('ColumnRef' in node)) return undefined;
  const names = (node.ColumnRef.fields ?? []).map((f) => ('String' in f ? f.String.sval : undefined));
  if (names.some((n) => n === undefined) || names.length === 0) return undefined;
  const column = names[names.length - 1]!;
  return { qualifier: names.length > 1 ? names[names.length - 2] : undefined, column };
}

function isParameter(node: Node | undefined): boolean {
  if (!node) return false;
  if ('ParamRef' in node) return true;
  return 'TypeCast' in node && isParameter(node.TypeCast.arg);
}

/** `x.network_id = $n` or `x.network_id = y.network_id` (either order): its two sides; else undefined. */
function networkEquality(expr: Node): [Column | 'parameter', Column | 'parameter'] | undefined {
  if (!('A_Expr' in expr)) return undefined;
  const { kind, name, lexpr, rexpr } = expr.A_Expr;
  const operator = name?.length === 1 && 'String' in name[0]! ? name[0].String.sval : undefined;
  if (kind !== 'AEXPR_OP' || operator !== '=') return undefined;
  const side = (node: Node | undefined): Column | 'parameter' | undefined => {
    if (isParameter(node)) return 'parameter';
    const column = columnOf(node);
    return column?.column === NETWORK_COLUMN ? column : undefined;
  };
  const [a, b] = [side(lexpr), side(rexpr)];
  if (!a || !b || (a === 'parameter' && b === 'parameter')) return undefined;
  return [a, b];
}

/** The reference a column names: by qualifier, else the one relation of the nearest scope that can have it. */
function resolve(scope: Scope | undefined, column: Column): Ref | undefined {
  for (let s = scope; s; s = s.parent) {
    if (column.qualifier !== undefined) {
      const named = s.refs.find((r) => r.name === column.qualifier);
      if (named) return named;
      continue;
    }
    if (s.refs.length === 1) return s.refs[0];
    const tenants = s.refs.filter((r) => r.tenant);
    if (tenants.length === 1) return tenants[0];
    if (s.refs.length > 0) return undefined;
  }
  return undefined;
}
