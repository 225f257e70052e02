import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

// The project's own config; type information is not needed for import rules and would make this slow.
const eslint = new ESLint({ cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked] });

/** Lints a fixture's text as if it were the file at `pretendPath`; the rule ids of the errors, by line. */
async function lintAs(fixture: string, pretendPath: string) {
  return lintTextAs(readFileSync(path.join(import.meta.dirname, 'fixtures', fixture), 'utf8'), pretendPath);
}

async function lintTextAs(text: string, pretendPath: string) {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, pretendPath) });
  return result!.messages.map(({ line, ruleId, message }) => ({ line, ruleId, message }));
}

// The first lint loads the config and its plugins, which takes seconds on a busy machine.
describe('the lint guards the layering', { timeout: 30_000 }, () => {
  it('refuses the web importing the server', async () => {
    expect(await lintAs('web-imports-server.ts', 'src/web/lib/start-server.ts')).toEqual([
      expect.objectContaining({
        line: 2,
        ruleId: 'import-x/no-restricted-paths',
        message: expect.stringContaining('The web never imports the server'),
      }),
    ]);
  });

  it('refuses src/shared importing a feature', async () => {
    expect(await lintAs('shared-imports-feature.ts', 'src/shared/rules/room-title.ts')).toEqual([
      expect.objectContaining({
        line: 2,
        ruleId: 'import-x/no-restricted-paths',
        message: expect.stringContaining('src/shared imports nothing of ours'),
      }),
    ]);
  });

  it("refuses a feature reaching into another's internals, and allows its service", async () => {
    expect(await lintAs('feature-internals.ts', 'src/server/features/guru/history.ts')).toEqual([
      expect.objectContaining({
        line: 2,
        ruleId: 'import-x/no-restricted-paths',
        message: expect.stringContaining('(service.ts)'),
      }),
    ]);
  });

  it('refuses platform/ importing a feature', async () => {
    expect(await lintAs('platform-imports-feature.ts', 'src/server/platform/mail/welcome.ts')).toEqual([
      expect.objectContaining({
        line: 2,
        ruleId: 'import-x/no-restricted-paths',
        message: expect.stringContaining('platform/ knows no feature'),
      }),
    ]);
  });

  it('refuses http/ or db/ importing platform/, and lets their tests build the whole app', async () => {
    expect(await lintAs('http-imports-platform.ts', 'src/server/http/send-upload.ts')).toEqual([
      expect.objectContaining({ line: 2, message: expect.stringContaining('http/ is below platform/') }),
    ]);
    expect(await lintAs('db-imports-platform.ts', 'src/server/db/backup.ts')).toEqual([
      expect.objectContaining({ line: 2, message: expect.stringContaining('db/ is below platform/') }),
    ]);
    expect(await lintAs('http-imports-platform.ts', 'src/server/http/send-upload.test.ts')).toEqual([]);
  });

  it('keeps boot/ apart: nothing of the app imports it, and it imports only page-contract/', async () => {
    expect(await lintAs('feature-imports-boot.ts', 'src/web/features/chat/offline-notice.ts')).toEqual([
      expect.objectContaining({ line: 2, message: expect.stringContaining('Nothing of the app imports boot/') }),
    ]);
    expect(await lintAs('boot-imports-lib.ts', 'src/web/boot/retry.ts')).toEqual([
      expect.objectContaining({ line: 2, message: expect.stringContaining('boot/ imports only page-contract/') }),
    ]);
  });

  it('refuses components/ui importing a feature', async () => {
    expect(await lintAs('ui-imports-feature.tsx', 'src/web/components/ui/room-badge.tsx')).toEqual([
      expect.objectContaining({
        line: 2,
        ruleId: 'import-x/no-restricted-paths',
        message: expect.stringContaining('components/ui knows no feature'),
      }),
    ]);
  });

  it('refuses an import cycle', async () => {
    expect(await lintAs('import-cycle.ts', 'src/server/features/chat/message-columns.ts')).toEqual([
      expect.objectContaining({ line: 2, ruleId: 'import-x/no-cycle' }),
    ]);
  });

  it('refuses a file name that is not kebab-case', async () => {
    const errors = await lintAs('import-cycle.ts', 'src/server/features/chat/MessageColumns.ts');
    expect(errors.map(({ ruleId }) => ruleId)).toContain('check-file/filename-naming-convention');
  });

  it('refuses a production file over 400 lines, and lets a test be longer', async () => {
    const lines = (count: number) =>
      Array.from({ length: count }, (_, i) => `export const line${i} = ${i};`).join('\n');
    const ruleIds = async (text: string, pretendPath: string) =>
      (await lintTextAs(`${text}\n`, pretendPath)).map(({ ruleId }) => ruleId);
    expect(await ruleIds(lines(401), 'src/server/features/chat/long-file.ts')).toEqual(['max-lines']);
    expect(await ruleIds(lines(400), 'src/server/features/chat/long-file.ts')).toEqual([]);
    expect(await ruleIds(lines(401), 'src/server/features/chat/long-file.test.ts')).toEqual([]);
  });
});
