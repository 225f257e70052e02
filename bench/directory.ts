// Find Tutors on the embedded database: a visitor's first page and a filtered, text-searched page, at 100 tutors with
// 10,000 reviews (the baseline) and at 10,000 tutors with 1,000,000 reviews, two databases side by side in the same
// run. Calls alternate between the two sizes, so a collection or a busy machine hits both alike; median of 3 rounds of
// 1,000 calls a size (a p99 over 200 calls is the second slowest call, mostly noise). The directory reads the
// counters kept on each tutor's row through an index, so the ratio should stay near 1. The first page reads its 21 rows
// of the best-match index at both sizes; the searched page walks that index until 21 rows pass every filter (some
// 1,400 rows at 10,000 tutors, whatever the size beyond), where the baseline reads all of its 100 for the few that
// match (none in some runs: subjects are dealt by id).
import { sql } from 'drizzle-orm';
import { withEmbeddedApp } from './embedded-app.ts';
import { percentile } from './marketplace.ts';
import { createUser } from '../tests/support/factories.ts';

const BASELINE_TUTORS = 100;
const TUTORS = Number(process.env.DIRECTORY_BENCH_TUTORS ?? 10_000);
const REVIEWS_PER_TUTOR = Number(process.env.DIRECTORY_BENCH_REVIEWS_PER_TUTOR ?? 100);
const CALLS = 1_000;
const WARM_UP_CALLS = 100;
const ROUNDS = 3;
/** Reviews are written this many at a time, so the embedded database never holds one huge statement. */
const REVIEW_CHUNK = 100_000;

type BenchApp = Parameters<Parameters<typeof withEmbeddedApp>[1]>[0];
type Db = BenchApp['db'];

const TOPICS = ['algebra', 'calculus', 'chemistry', 'physics', 'essay writing', 'statistics', 'biology'];
const STYLES = ['Patient', 'Friendly', 'Exam-focused', 'Experienced'];
const textArray = (values: string[]) => sql.raw(`array[${values.map((value) => `'${value}'`).join(', ')}]`);

/** Tutors numbered `from` to `to`, with texts, rates, response times, visibility and two subjects each. */
async function seedTutors(db: Db, from: number, to: number, subjectIds: string[]) {
  await db.execute(sql`
    insert into users (name, username, email, email_verified, role, vh_number, headline, about, hourly_rate_cents,
      response_minutes, is_visible_to_visitors)
    select 'tutor' || n, 'dirtutor' || n, 'dirtutor' || n || '@example.com', true, 'teacher', 100 + n % 900,
      (${textArray(STYLES)})[1 + n % 4] || ' ' || (${textArray(TOPICS)})[1 + (n * 7 / 3) % 7] || ' tutor',
      'I have taught for ' || (n % 20) || ' years: ' || (${textArray(TOPICS)})[1 + (n * 3) % 7] || ' with worked examples.',
      800 + (n * 37) % 701, case when n % 5 = 0 then null else (n * 13) % 2000 end, n % 10 <> 0
    from generate_series(${from}::int, ${to}::int) as n`);
  await db.execute(sql`
    insert into teacher_specializations (teacher_id, subject_id)
    select u.id, s.id from users u
    cross join lateral (select id from unnest(${sql.param(subjectIds)}::uuid[]) with ordinality as t(id, k)
      where k in (1 + abs(hashtext(u.id::text)) % ${subjectIds.length}, 1 + abs(hashtext(u.username)) % ${subjectIds.length})) as s
    where u.username like 'dirtutor%' and substring(u.username from 9)::int between ${from} and ${to}`);
}

/** Completed jobs with a review each, spread over the tutors numbered `from` to `to`, and their counters. */
async function seedReviews(db: Db, from: number, to: number, reviewerId: string, subjectId: string) {
  const total = (to - from + 1) * REVIEWS_PER_TUTOR;
  for (let done = 0; done < total; done += REVIEW_CHUNK) {
    const count = Math.min(REVIEW_CHUNK, total - done);
    await db.execute(sql`
      with tutors as (
        select id, row_number() over (order by id) - 1 as k from users
        where username like 'dirtutor%' and substring(username from 9)::int between ${from} and ${to}),
      jobs as (
        insert into tutoring_requests (type, subject_id, description, budget_min_cents, budget_max_cents, student_id,
          status, completed_at, created_at)
        select 'tutoring', ${subjectId}, 'Finished job ' || n, 800, 1500, ${reviewerId}, 'completed', now(),
          now() - make_interval(secs => n)
        from generate_series(${done + 1}::int, ${done + count}::int) as n
        returning id, created_at),
      numbered as (select id, row_number() over (order by created_at) as n from jobs)
      insert into tutor_bids (request_id, tutor_id, amount_cents, status, created_at)
      select numbered.id, tutors.id, 1000, 'accepted', now() from numbered
      join tutors on tutors.k = numbered.n % ${to - from + 1}`);
  }
  await db.execute(sql`
    update tutoring_requests set accepted_bid_id = b.id from tutor_bids b
    where b.request_id = tutoring_requests.id and tutoring_requests.accepted_bid_id is null
      and tutoring_requests.student_id = ${reviewerId}`);
  await db.execute(sql`
    insert into reviews (request_id, student_id, bid_id, tutor_id, rating, body, created_at)
    select r.id, r.student_id, b.id, b.tutor_id, 1 + (abs(hashtext(r.id::text)) % 5), 'Clear and patient.', r.created_at
    from tutoring_requests r join tutor_bids b on b.id = r.accepted_bid_id
    where r.student_id = ${reviewerId} and not exists (select 1 from reviews where reviews.request_id = r.id)`);
  await db.execute(sql`
    update users set jobs_completed = s.jobs, review_count = s.jobs, review_rating_sum = s.stars
    from (select tutor_id, count(*)::int as jobs, sum(rating)::int as stars from reviews group by tutor_id) as s
    where users.id = s.tutor_id`);
  await db.execute(sql`analyze`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (ms: number) => Math.round(ms * 100) / 100;

/** A database of `tutors` tutors with their reviews, and the two pages asked of it. */
async function seedDirectory({ app, db }: BenchApp, tutors: number) {
  const subjectIds = (await db.execute<{ id: string }>(sql`select id from subjects order by name`)).rows.map(
    (row) => row.id,
  );
  const reviewer = await createUser(db, { role: 'student' });
  await seedTutors(db, 1, tutors, subjectIds);
  await seedReviews(db, 1, tutors, reviewer.id, subjectIds[0]!);
  const urls = [
    '/api/tutors',
    `/api/tutors?q=calc&subjects=${subjectIds.slice(0, 8).join(',')}&minRating=3&maxRateCents=1400`,
  ];
  const call = async (url: string) => {
    const startedAt = performance.now();
    const response = await app.inject({ method: 'GET', url });
    const ms = performance.now() - startedAt;
    if (response.statusCode !== 200) throw new Error(`Unexpected status ${response.statusCode}`);
    return { ms, cards: response.json<{ tutors: unknown[] }>().tutors.length };
  };
  return { urls, call };
}

const CASES = [
  "a visitor's first page (best match)",
  'searched "calc", 8 subjects, 3 stars or more, at most $14',
] as const;

export async function benchDirectory() {
  return withEmbeddedApp('directory-baseline', (baselineApp) =>
    withEmbeddedApp('directory', async (largeApp) => {
      const baseline = await seedDirectory(baselineApp, BASELINE_TUTORS);
      const startedAt = performance.now();
      const large = await seedDirectory(largeApp, TUTORS);
      const seedMs = performance.now() - startedAt;
      const reviews = await largeApp.db.execute<{ n: string }>(sql`select count(*) as n from reviews`);

      const rows = [];
      for (const [index, name] of CASES.entries()) {
        const sizes = [baseline, large].map(({ urls, call }) => ({ url: urls[index]!, call }));
        const cards = [0, 0];
        for (let i = 0; i < WARM_UP_CALLS; i++)
          for (const [k, size] of sizes.entries()) cards[k] = (await size.call(size.url)).cards;
        const p50s: number[][] = [[], []];
        const p99s: number[][] = [[], []];
        for (let r = 0; r < ROUNDS; r++) {
          const durations: number[][] = [[], []];
          for (let i = 0; i < CALLS; i++) {
            // Each size goes first every other call, so neither always follows the other's garbage.
            for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) durations[k]!.push((await sizes[k]!.call(sizes[k]!.url)).ms);
          }
          for (const k of [0, 1]) {
            const sorted = durations[k]!.sort((a, b) => a - b);
            p50s[k]!.push(percentile(sorted, 50));
            p99s[k]!.push(percentile(sorted, 99));
          }
        }
        const [p50Small, p50Large] = p50s.map(median) as [number, number];
        const [p99Small, p99Large] = p99s.map(median) as [number, number];
        rows.push({
          case: name,
          [`p50_ms_${BASELINE_TUTORS}`]: round(p50Small),
          [`p99_ms_${BASELINE_TUTORS}`]: round(p99Small),
          [`p50_ms_${TUTORS}`]: round(p50Large),
          [`p99_ms_${TUTORS}`]: round(p99Large),
          p50_ratio: round(p50Large / p50Small),
          p99_ratio: round(p99Large / p99Small),
          cards_on_page: `${cards[0]} / ${cards[1]}`,
        });
      }
      return {
        setUp: `${TUTORS.toLocaleString('en')} tutors, ${Number(reviews.rows[0]!.n).toLocaleString('en')} reviews, seeded in ${Math.round(seedMs / 1000)} s`,
        rows,
      };
    }),
  );
}
