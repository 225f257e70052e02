// Import cycles, type-only imports included: `import-x/no-cycle` skips `import type` by design, and a cycle of
// types still ties two modules together. Run by `npm run lint`; exits 1 and names each cycle when there is one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Every group of files that import each other in a circle (strongly connected components of two or more). */
export function findImportCycles(fileNames: string[], options: ts.CompilerOptions): string[][] {
  const imports = new Map<string, string[]>();
  for (const fileName of fileNames) {
    const { importedFiles } = ts.preProcessFile(readFileSync(fileName, 'utf8'), true, true);
    const targets = importedFiles.flatMap(({ fileName: specifier }) => {
      const resolved = ts.resolveModuleName(specifier, fileName, options, ts.sys).resolvedModule;
      return resolved && !resolved.isExternalLibraryImport ? [path.resolve(resolved.resolvedFileName)] : [];
    });
    imports.set(path.resolve(fileName), targets);
  }
  return stronglyConnected(imports).filter((group) => group.length > 1);
}

// Tarjan's algorithm, iterative so that a deep import chain cannot overflow the stack.
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    lowLink.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++]!;
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, next);
          lowLink.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) lowLink.set(parent.node, Math.min(lowLink.get(parent.node)!, lowLink.get(frame.node)!));
      if (lowLink.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        groups.push(group);
      }
    }
  }
  return groups;
}

/** The project's files and compiler options, as tsconfig.json describes them. */
export function projectFiles(root: string) {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  return { fileNames: config.fileNames, options: config.options };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.cwd();
  const { fileNames, options } = projectFiles(root);
  const cycles = findImportCycles(fileNames, options);
  for (const cycle of cycles) {
    console.error(`Import cycle: ${cycle.map((file) => path.relative(root, file)).join(' ⇄ ')}`);
  }
  if (cycles.length > 0) process.exit(1);
}
