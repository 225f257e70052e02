// Lighthouse (mobile: its default simulated slow 4G and 4x slower CPU) against the built server process, driving
// the system Chromium: the public pages signed out, and the signed-in pages with a session cookie. Each page is
// measured three times and every figure is the median of the three. Budgets: performance ≥ 95 on public pages and
// ≥ 90 signed in, LCP ≤ 2 s, TBT ≤ 150 ms, CLS ≤ 0.02, accessibility, best practices and SEO at 100.
// `npm run bench -- lighthouse /about /chat` measures only the paths given; with `LIGHTHOUSE_REPORTS=<folder>` every
// run's full report is written there as HTML, to see what a figure is made of.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { paths } from '../src/shared/paths.ts';
import { createSessionCookie, createSubject, createTeacher, createUser } from '../tests/support/factories.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { CHROMIUM_PATH } from '../tests/support/chromium.ts';
import { freePort, startServerProcess } from '../tests/support/server-process.ts';
import { TEST_AUTH_SECRET } from '../tests/support/test-config.ts';

const RUNS = 3;
const CHROMIUM = process.env.CHROME_PATH ?? CHROMIUM_PATH;
const REPORTS_DIR = process.env.LIGHTHOUSE_REPORTS;

type Visitor = 'signed out' | 'student' | 'teacher';

/**
 * A tutor's public page (rendered by the server for visitors), named by its route (`npm run bench -- lighthouse
 * /tutors/:tutorId`): a tutor with texts and subjects is made for it.
 */
const PUBLIC_PROFILE = paths.tutor.path;

const PAGES: Array<{ path: string; visitor: Visitor }> = [
  ...[
    paths.home.getHref(),
    paths.about.getHref(),
    paths.contact.getHref(),
    paths.privacyPolicy.getHref(),
    paths.terms.getHref(),
    paths.disclaimer.getHref(),
    paths.auth.login.getHref(),
    paths.auth.register.getHref(),
    paths.auth.forgotPassword.getHref(),
    PUBLIC_PROFILE,
  ].map((pagePath) => ({ path: pagePath, visitor: 'signed out' as const })),
  { path: paths.chat.getHref(), visitor: 'student' },
  { path: paths.teacher.jobs.getHref(), visitor: 'teacher' },
];

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

type Measurement = {
  scores: Record<(typeof CATEGORIES)[number], number>;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptKb: number;
};

const budgetFor = (visitor: Visitor) => ({
  performance: visitor === 'signed out' ? 95 : 90,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
  lcpMs: 2_000,
  tbtMs: 150,
  cls: 0.02,
});

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A headless Chromium with the DevTools protocol on a free port, for Lighthouse to drive. */
async function launchChromium() {
  const port = await freePort();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'vh-bench-chromium-'));
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    // Its own process group, so that closing it ends its helper processes too.
    { stdio: 'ignore', detached: true },
  );
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
    } catch {
      if (Date.now() > deadline) throw new Error('Chromium did not open its DevTools port');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    port,
    async close() {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
      await rm(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    },
  };
}

async function measureOnce(
  chromiumPort: number,
  url: string,
  cookie: string | undefined,
  reportName?: string,
  attemptsLeft = 2,
): Promise<Measurement> {
  const result = await lighthouse(url, {
    port: chromiumPort,
    output: REPORTS_DIR && reportName ? 'html' : 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    ...(cookie ? { extraHeaders: { cookie } } : {}),
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) {
    // Now and then the trace misses the navigation (NO_NAVSTART): Lighthouse itself says to run it again.
    if (attemptsLeft > 0) return measureOnce(chromiumPort, url, cookie, reportName, attemptsLeft - 1);
    throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  }
  if (REPORTS_DIR && reportName) {
    mkdirSync(REPORTS_DIR, { recursive: true });
    writeFileSync(path.join(REPORTS_DIR, `${reportName}.html`), String(result.report));
  }
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const scripts = (
    lhr.audits['resource-summary']?.details as { items?: Array<Record<string, unknown>> } | undefined
  )?.items?.find((item) => item.resourceType === 'script');
  return {
    scores: Object.fromEntries(
      CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
    ) as Measurement['scores'],
    fcpMs: audit('first-contentful-paint'),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    scriptKb: Number(scripts?.transferSize ?? NaN) / 1024,
  };
}

export async function benchLighthouse(onlyPaths: string[] = []) {
  const pages = onlyPaths.length > 0 ? PAGES.filter((page) => onlyPaths.includes(page.path)) : PAGES;
  // The built server in production mode on a fresh embedded database, with its public URL on the very host
  // Lighthouse opens: the chat socket accepts only that origin.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-bench-lighthouse-'));
  const port = await freePort();
  const server = await startServerProcess(
    [process.execPath, 'dist/server/main.js'],
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ADMIN_PASSWORD: 'Bench-password-1',
      AUTH_SECRET: TEST_AUTH_SECRET,
      NODE_ENV: 'production',
      PAYMENTS_PROVIDER: 'none',
    },
    60_000,
  );
  try {
    const database = await openDatabase(
      { kind: 'postgres', url: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(dataDir)}` },
      { poolSize: 1 },
    );
    const cookies: Record<Visitor, string | undefined> = { 'signed out': undefined, student: '', teacher: '' };
    let tutorId = '';
    try {
      const subject = await createSubject(database.db, { name: 'Marine biology' });
      tutorId = (
        await createTeacher(database.db, {
          subjectIds: [subject.id],
          headline: 'Patient biology tutor for school and first-year university',
          about: 'I have taught biology for eight years, with drawings and short quizzes.',
          jobsCompleted: 12,
          reviewCount: 10,
          reviewRatingSum: 46,
        })
      ).id;
      for (const role of ['student', 'teacher'] as const) {
        const user = await createUser(database.db, { role });
        cookies[role] = (await createSessionCookie(database.db, user.id)).header;
      }
    } finally {
      await database.close();
    }

    const rows = [];
    let withinBudget = true;
    // Each visitor gets a browser of its own, so no cookie one page's answers set is sent with another's.
    for (const visitor of ['signed out', 'student', 'teacher'] as const) {
      const visitorPages = pages.filter((page) => page.visitor === visitor);
      if (visitorPages.length === 0) continue;
      const chromium = await launchChromium();
      try {
        // One run first to warm the server, the browser and the disk cache; it is not counted.
        const urlOf = (pagePath: string) =>
          server.url + (pagePath === PUBLIC_PROFILE ? paths.tutor.getHref(tutorId) : pagePath);
        await measureOnce(chromium.port, urlOf(visitorPages[0]!.path), cookies[visitor]);
        for (const page of visitorPages) {
          const runs = [];
          for (let run = 0; run < RUNS; run++) {
            const reportName = `${page.path.replace(/^\//, '').replaceAll(/[/:]/g, '-') || 'home'}-${run + 1}`;
            runs.push(await measureOnce(chromium.port, urlOf(page.path), cookies[visitor], reportName));
          }
          const row = summarize(page, runs);
          if (!row.withinBudget) withinBudget = false;
          rows.push(row.figures);
        }
      } finally {
        await chromium.close();
      }
    }
    return { rows, withinBudget };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The medians of one page's runs, as a table row, and whether they are within the page's budget. */
function summarize(page: (typeof PAGES)[number], runs: Measurement[]) {
  const figures = {
    performance: median(runs.map((run) => run.scores.performance)),
    accessibility: median(runs.map((run) => run.scores.accessibility)),
    'best-practices': median(runs.map((run) => run.scores['best-practices'])),
    seo: median(runs.map((run) => run.scores.seo)),
    fcpMs: median(runs.map((run) => run.fcpMs)),
    lcpMs: median(runs.map((run) => run.lcpMs)),
    tbtMs: median(runs.map((run) => run.tbtMs)),
    cls: median(runs.map((run) => run.cls)),
    scriptKb: median(runs.map((run) => run.scriptKb)),
  };
  const budget = budgetFor(page.visitor);
  const missed = [
    figures.performance < budget.performance && `performance < ${budget.performance}`,
    figures.accessibility < budget.accessibility && `accessibility < ${budget.accessibility}`,
    figures['best-practices'] < budget['best-practices'] && `best practices < ${budget['best-practices']}`,
    figures.seo < budget.seo && `SEO < ${budget.seo}`,
    figures.lcpMs > budget.lcpMs && `LCP > ${budget.lcpMs} ms`,
    figures.tbtMs > budget.tbtMs && `TBT > ${budget.tbtMs} ms`,
    figures.cls > budget.cls && `CLS > ${budget.cls}`,
  ].filter(Boolean);
  return {
    withinBudget: missed.length === 0,
    figures: {
      page: page.path,
      visitor: page.visitor,
      perf: figures.performance,
      a11y: figures.accessibility,
      'best pr.': figures['best-practices'],
      seo: figures.seo,
      'FCP ms': Math.round(figures.fcpMs),
      'LCP ms': Math.round(figures.lcpMs),
      'TBT ms': Math.round(figures.tbtMs),
      CLS: Math.round(figures.cls * 1000) / 1000,
      'JS KB sent': Math.round(figures.scriptKb * 10) / 10,
      budget: missed.length === 0 ? 'ok' : `MISSED: ${missed.join(', ')}`,
    },
  };
}
