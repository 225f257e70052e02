// `npm run bench`: runs every benchmark against the built app (`npm run build` first) and prints a table each.
import { existsSync } from 'node:fs';
import { benchStartup } from './startup.ts';

if (!existsSync('dist/server/main.js')) {
  console.error('Build first: npm run build');
  process.exit(1);
}

console.log('\nStartup (time to the first answered /api/health)');
console.table(await benchStartup());
