import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readZip } from '../../../../../tests/support/zip.ts';
import { createZipWriter } from './zip-writer.ts';

async function zipOf(files: Array<[string, Readable | Buffer | string]>) {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const zip = createZipWriter(output);
  for (const [name, source] of files) await zip.add(name, source);
  await zip.finish();
  return Buffer.concat(chunks);
}

describe('the zip writer', () => {
  it('writes text, bytes and streams that read back whole, under UTF-8 names', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    const random = Buffer.from(Array.from({ length: 100_000 }, (_, index) => (index * 7919) % 251));
    const zip = await zipOf([
      ['README.txt', 'Hello'],
      ['files/Übung 1.pdf', random],
      ['files/big.bin', Readable.from([big.subarray(0, 1000), big.subarray(1000)])],
      ['empty.json', ''],
    ]);
    const files = readZip(zip);
    expect([...files.keys()]).toEqual(['README.txt', 'files/Übung 1.pdf', 'files/big.bin', 'empty.json']);
    expect(files.get('README.txt')!.toString()).toBe('Hello');
    expect(files.get('files/Übung 1.pdf')!.equals(random)).toBe(true);
    expect(files.get('files/big.bin')!.equals(big)).toBe(true);
    expect(files.get('empty.json')!.length).toBe(0);
    // Deflated: the repetitive file takes a fraction of its size.
    expect(zip.length).toBeLessThan(big.length / 10 + random.length + 10_000);
  });

  it.skipIf(!existsSync('/usr/bin/unzip'))('passes unzip’s own test', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'zip-'));
    const file = path.join(dir, 'export.zip');
    await writeFile(
      file,
      await zipOf([
        ['a.json', '{"a":1}'],
        ['b/c.txt', Readable.from(['x'.repeat(70_000)])],
      ]),
    );
    const { stdout } = await promisify(execFile)('unzip', ['-t', file]);
    expect(stdout).toContain('No errors detected');
    expect((await readFile(file)).length).toBeGreaterThan(0);
  });
});
