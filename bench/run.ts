// `npm run bench`: runs every benchmark against the built app (`npm run build` first) and prints a table each;
// `npm run bench -- chat` (or any of startup, offline-start, marketplace, payments, push, rooms, trust, directory, chat, scale-out, guru, moderation, lighthouse) runs only
// those named; paths (`npm run bench -- lighthouse /about /chat`) limit the pages Lighthouse measures.
import { existsSync } from 'node:fs';
import { benchChat } from './chat.ts';
import { benchDirectory } from './directory.ts';
import { benchGuru } from './guru.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchMarketplace } from './marketplace.ts';
import { benchModeration } from './moderation.ts';
import { benchOfflineStart } from './offline-start.ts';
import { benchPayments } from './payments.ts';
import { benchPush } from './push.ts';
import { benchRooms } from './rooms.ts';
import { benchScaleOut, missingForScaleOut } from './scale-out.ts';
import { benchStartup } from './startup.ts';
import { benchTrust } from './trust.ts';

const benches = {
  async startup() {
    console.log("\nStartup (time to the first answered /api/health; then the whole process tree's memory, idle 5 s)");
    console.table(await benchStartup());
  },
  async 'offline-start'() {
    console.log(
      `\nA repeat visit to /chat with the service worker and without it: navigation to the conversation list on screen, median of 3 (Chromium)`,
    );
    console.table(await benchOfflineStart());
  },
  async marketplace() {
    console.log(
      '\nMarketplace (embedded database: jobs page among 100,000 requests, one request notifying 1,000 teachers)',
    );
    console.table(await benchMarketplace());
  },
  async payments() {
    console.log(
      `\nPayments (embedded database, median of 3 rounds of 40 jobs): a paid checkout and a release against the plain accept and completion of PAYMENTS_PROVIDER=none, in the same run`,
    );
    console.table(await benchPayments());
  },
  async push() {
    console.log(
      '\nPush fan-out (embedded database, median of 3 jobs): one new job to every tutor of its subject, each with a device subscribed, from the post to the last push taken by a local push service',
    );
    console.table(await benchPush());
  },
  async rooms() {
    console.log(
      '\nRoom list (p50 of 200 calls): a user in 1,000 of 100,000 rooms against one in 10 of 10 (embedded; PostgreSQL too with BENCH_DATABASE_URL)',
    );
    console.table(await benchRooms());
  },
  async trust() {
    console.log(
      '\nTrust (embedded database): the offers page with 50 offers from tutors with 1,000 reviews each, against the same page before any review',
    );
    console.table(await benchTrust());
  },
  async directory() {
    const directory = await benchDirectory();
    console.log(
      `\nFind Tutors (embedded database, median of 3 rounds of 1,000 calls a size, alternating): ${directory.setUp}, against 100 tutors in the same run (target: p99 at most 50 ms, ratio at most 1.5)`,
    );
    console.table(directory.rows);
  },
  async chat() {
    const chat = await benchChat();
    console.log(
      `\nChat over sockets (${chat.setUp}), the app against a bare Socket.IO relay in the same run: pairs of users, send to the partner's message:new`,
    );
    console.table(chat.load);
    console.log(`\nChat history (${chat.setUp}): the first page of a conversation`);
    console.table(chat.open);
  },
  async 'scale-out'() {
    const missing = missingForScaleOut();
    if (missing) {
      console.log(`\nScale-out skipped: ${missing}`);
      return;
    }
    const { nodes, downloads } = await benchScaleOut();
    console.log(
      '\nNodes behind nginx (deploy/nginx.conf, PostgreSQL fan-out), median of 3 runs: room lists a second from 16 users without pause, chat messages a second stored and delivered from 16 senders each keeping one in flight, and send-to-delivery of one message at a time. Two cores: this is the cost of the proxy and the fan-out, not scaling',
    );
    console.table(nodes);
    console.log('\nDownloading a 1 MB chat attachment through nginx and one node, median of 3 rounds of 50');
    console.table(downloads);
  },
  async guru() {
    console.log(
      '\nGuru AI offline (warm, 5 rounds): the unit-tested questions and declines in-process and in the worker thread, a pathological question, and OCR of the test photo',
    );
    const guru = await benchGuru();
    console.table(guru.rows);
    if (!guru.withinBudget) process.exitCode = 1;
  },
  async moderation() {
    const moderation = benchModeration();
    console.log('\nChat moderation: adversarial 10,000-character messages against an ordinary one (median of 3)');
    console.table(moderation.rows);
    console.log(
      `\nAdmin patterns: the worst accepted, beside the default ones, on the 10,000-character text each is slowest on; an ordinary message with all of them active holds the event loop ${moderation.patterns.ordinaryMs.toFixed(2)} ms`,
    );
    console.table(moderation.patterns.rows);
    if (!moderation.withinBudget) process.exitCode = 1;
  },
  async lighthouse() {
    const lighthouse = await benchLighthouse(pagePaths);
    console.log('\nLighthouse mobile (simulated slow 4G, 4x CPU), median of 3 runs a page');
    console.table(lighthouse.rows);
    console.log(`Page budgets: ${lighthouse.withinBudget ? 'all met' : 'MISSED (see the budget column)'}`);
    if (!lighthouse.withinBudget) process.exitCode = 1;
  },
};

const pagePaths = process.argv.slice(2).filter((arg) => arg.startsWith('/'));
const named = process.argv.slice(2).filter((arg) => !arg.startsWith('/'));
const unknown = named.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; one of ${Object.keys(benches).join(', ')}`);
  process.exit(1);
}
if (!existsSync('dist/server/main.js')) {
  console.error('Build first: npm run build');
  process.exit(1);
}
for (const [name, bench] of Object.entries(benches)) {
  if (named.length === 0 || named.includes(name)) await bench();
}
