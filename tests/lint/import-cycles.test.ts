import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImportCycles, projectFiles } from '../../scripts/import-cycles.ts';

const root = path.resolve(import.meta.dirname, '../..');
const fixture = (name: string) => path.join(import.meta.dirname, 'fixtures', 'type-only-cycle', name);

describe('the import-cycle check (type-only imports included)', () => {
  const { options } = projectFiles(root);

  it('finds two files that import only types from each other', () => {
    const cycles = findImportCycles([fixture('lesson.ts'), fixture('tutor.ts')], options);
    expect(cycles.map((cycle) => cycle.map((file) => path.basename(file)).sort())).toEqual([['lesson.ts', 'tutor.ts']]);
  });
});
