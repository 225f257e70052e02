// `npm run bench`: runs every benchmark against the built app (`npm run build` first) and prints a table each.
import { existsSync } from 'node:fs';
import { benchChat } from './chat.ts';
import { benchGuru } from './guru.ts';
import { benchMarketplace } from './marketplace.ts';
import { benchModeration } from './moderation.ts';
import { benchStartup } from './startup.ts';

if (!existsSync('dist/server/main.js')) {
  console.error('Build first: npm run build');
  process.exit(1);
}

console.log('\nStartup (time to the first answered /api/health)');
console.table(await benchStartup());

console.log(
  '\nMarketplace (embedded database: jobs page among 100,000 requests, one request notifying 1,000 teachers)',
);
console.table(await benchMarketplace());

const chat = await benchChat();
console.log(
  `\nChat over sockets (${chat.database}): pairs of users sending messages, send to the partner's message:new`,
);
console.table(chat.load);
console.log(`\nChat history (${chat.database}): the first page of a conversation`);
console.table(chat.open);

console.log(
  '\nGuru AI offline (warm, 5 rounds): the unit-tested questions and declines in-process and in the worker thread, a pathological question, and OCR of the test photo',
);
console.table(await benchGuru());

const moderation = benchModeration();
console.log('\nChat moderation: adversarial 10,000-character messages against an ordinary one (median of 3)');
console.table(moderation.rows);
if (!moderation.withinBudget) process.exitCode = 1;
