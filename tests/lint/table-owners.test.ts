import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Each table has one writer (docs/decisions/0036-one-writer-per-table.md): its map is read from that record, and
// every insert, update and delete in the server's code (the query builder's or raw SQL's) is checked against it.

const root = path.resolve(import.meta.dirname, '../..');
const server = path.join(root, 'src/server');
const schemaDir = path.join(server, 'db/schema');
const decision = path.join(root, 'docs/decisions/0036-one-writer-per-table.md');

type Owners = Map<string, { owner: string; alsoToday: string[] }>;

/** The record's map: `| \`table\` | owner | others that still write it today, or — |`. */
function readOwners(): Owners {
  const rows = [...readFileSync(decision, 'utf8').matchAll(/^\|\s*`(\w+)`\s*\|\s*([\w/-]+)\s*\|\s*(.*?)\s*\|$/gm)];
  return new Map(
    rows.map(([, table, owner, also]) => [
      table!,
      { owner: owner!, alsoToday: also === '—' ? [] : also!.split(',').map((entry) => entry.trim().split(' ')[0]!) },
    ]),
  );
}

/** For each schema file, its exported tables: TypeScript name → SQL name. */
function readSchema() {
  const files = new Map<string, Map<string, string>>();
  for (const name of readdirSync(schemaDir).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))) {
    const text = readFileSync(path.join(schemaDir, name), 'utf8');
    const tables = [...text.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)].map(([, id, sqlName]) => [
      id!,
      sqlName!,
    ]);
    files.set(path.join(schemaDir, name), new Map(tables as [string, string][]));
  }
  return files;
}

/** The part of the server a file belongs to: its feature, `platform/<adapter>`, or the layer's folder. */
function writerOf(file: string) {
  const [layer, part] = path.relative(server, file).split(path.sep);
  if (layer === 'features') return part!;
  if (layer === 'platform') return `platform/${part!.replace(/\.ts$/, '')}`;
  return layer!;
}

const productionFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return productionFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
  });

const schema = readSchema();
const sourceOf = (file: string, text?: string) =>
  ts.createSourceFile(file, text ?? readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

function resolveImport(file: string, specifier: string) {
  if (specifier.startsWith('#server/')) return path.join(server, specifier.slice('#server/'.length));
  return specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : null;
}

/** The tables a file's names stand for: imported from the schema, or another name for one (`const r = requests`). */
function tableNamesIn(source: ts.SourceFile, aliasesByFile: Map<string, Map<string, string>>) {
  const names = new Map<string, string>();
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const from = resolveImport(source.fileName, statement.moduleSpecifier.text);
      const exported = from && (schema.get(from) ?? aliasesByFile.get(from));
      const bindings = statement.importClause?.namedBindings;
      if (!exported || !bindings || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) {
        const table = exported.get((element.propertyName ?? element.name).text);
        if (table) names.set(element.name.text, table);
      }
    }
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const table =
          ts.isIdentifier(declaration.name) && declaration.initializer && ts.isIdentifier(declaration.initializer)
            ? names.get(declaration.initializer.text)
            : undefined;
        if (table && ts.isIdentifier(declaration.name)) names.set(declaration.name.text, table);
      }
    }
  }
  return names;
}

type Write = { file: string; line: number; writer: string; table: string };

/** Every `.insert(t)`, `.update(t)`, `.delete(t)` and raw `insert into ${t}`, `update ${t}`, `delete from ${t}`. */
function writesIn(source: ts.SourceFile, names: Map<string, string>, writer: string): Write[] {
  const writes: Write[] = [];
  const add = (node: ts.Node, expression: ts.Expression | undefined) => {
    const table = expression && ts.isIdentifier(expression) ? names.get(expression.text) : undefined;
    if (!table) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    writes.push({ file: path.relative(root, source.fileName), line, writer, table });
  };
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['insert', 'update', 'delete'].includes(node.expression.name.text)
    ) {
      add(node, node.arguments[0]);
    }
    if (ts.isTaggedTemplateExpression(node) && ts.isTemplateExpression(node.template)) {
      let before = node.template.head.text;
      for (const span of node.template.templateSpans) {
        if (/\b(insert\s+into|update|delete\s+from)\s*$/i.test(before)) add(span, span.expression);
        before = span.literal.text;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return writes;
}

/** The writes of the server's code (the seed, which fills tables before any feature runs, aside). */
function serverWrites(extra?: { text: string; pretendPath: string }) {
  const files = productionFiles(server).filter(
    (file) => !file.startsWith(schemaDir) && file !== path.join(server, 'db/seed.ts'),
  );
  const sources = files.map((file) => sourceOf(file));
  if (extra) sources.push(sourceOf(path.join(root, extra.pretendPath), extra.text));
  // First the names each file exports for a table, then every file's writes through them.
  const aliasesByFile = new Map(sources.map((source) => [source.fileName, tableNamesIn(source, new Map())]));
  return sources.flatMap((source) => writesIn(source, tableNamesIn(source, aliasesByFile), writerOf(source.fileName)));
}

/** Writes by neither the owner nor a writer the record still lists; and the listed writers that no longer write. */
function checkOwners(writes: Write[], owners: Owners) {
  const foreign = writes
    .filter(({ writer, table }) => {
      const entry = owners.get(table);
      return !entry || (entry.owner !== writer && !entry.alsoToday.includes(writer));
    })
    .map(
      ({ file, line, writer, table }) =>
        `${file}:${line}: ${writer} writes ${table} (${owners.get(table)?.owner ?? 'no owner'})`,
    );
  const stale = [...owners].flatMap(([table, { alsoToday }]) =>
    alsoToday
      .filter((writer) => !writes.some((write) => write.table === table && write.writer === writer))
      .map((writer) => `${writer} no longer writes ${table}: take it off the record`),
  );
  return { foreign, stale };
}

describe('each table has one writer', { timeout: 60_000 }, () => {
  const owners = readOwners();

  it('names an owner for every table of the schema, and no other', () => {
    const tables = [...schema.values()].flatMap((tablesOfFile) => [...tablesOfFile.values()]);
    expect([...owners.keys()].sort()).toEqual(tables.sort());
  });

  it('finds no write by anyone but the owner (or a writer the record still lists)', () => {
    const writes = serverWrites();
    // The check sees the writes it is about: raw SQL, the query builder, and a table under another name.
    expect(writes).toContainEqual(expect.objectContaining({ writer: 'moderation', table: 'moderation_attempts' }));
    expect(writes).toContainEqual(expect.objectContaining({ writer: 'requests', table: 'tutoring_requests' }));
    expect(checkOwners(writes, owners)).toEqual({ foreign: [], stale: [] });
  });

  it("refuses a feature writing another feature's table", () => {
    const text = readFileSync(path.join(import.meta.dirname, 'fixtures/feature-writes-other-table.ts'), 'utf8');
    const writes = serverWrites({ text, pretendPath: 'src/server/features/guru/history.ts' });
    expect(checkOwners(writes, owners).foreign).toEqual([
      'src/server/features/guru/history.ts:6: guru writes messages (chat)',
      'src/server/features/guru/history.ts:10: guru writes chat_rooms (chat)',
    ]);
  });
});
