// Trust on the embedded database: a student's offers page with 50 offers from tutors who have 1,000 reviews each
// (against the same page before any review: the rating is read from the tutor's counters, never recounted), and one
// such tutor's public page and first page of reviews.
import { sql } from 'drizzle-orm';
import { withEmbeddedApp } from './embedded-app.ts';
import { createRequest, createSessionCookie, createSubject, createUser } from '../tests/support/factories.ts';
import { timed } from './marketplace.ts';

const TUTORS = 50;
const REVIEWS_PER_TUTOR = 1_000;
const CALLS = 200;

export async function benchTrust() {
  return withEmbeddedApp('trust', async ({ app, db }) => {
    const subject = await createSubject(db);
    const student = await createUser(db, { role: 'student' });
    const reviewer = await createUser(db, { role: 'student' });

    // 50 tutors, each with an offer on the student's request.
    const tutorIds = (
      await db.execute<{ id: string }>(sql`
        insert into users (name, username, email, email_verified, role, vh_number)
        select 'tutor' || n, 'benchtutor' || n, 'benchtutor' || n || '@example.com', true, 'teacher', 100 + n
        from generate_series(1, ${TUTORS}) as n returning id`)
    ).rows.map((row) => row.id);
    const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
    await db.execute(sql`
      insert into tutor_bids (request_id, tutor_id, amount_cents, message)
      select ${request.id}, tutor_id, 1000, 'I can help with this.' from unnest(${sql.param(tutorIds)}::uuid[]) as tutor_id`);

    const cookie = (await createSessionCookie(db, student.id)).header;
    const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
    const offersPage = () => get(`/api/requests/${request.id}/bids`);
    await timed(offersPage, 20);
    const baseline = await timed(offersPage, CALLS);

    // 1,000 completed jobs with a review per tutor: requests, accepted bids, the link between them, the reviews, and
    // the counters the service keeps (set here in one statement, as the reviews' transactions would have left them).
    const startedAt = performance.now();
    await db.execute(sql`
      with jobs as (
        insert into tutoring_requests (type, subject_id, description, budget_min_cents, budget_max_cents, student_id, status, completed_at, created_at)
        select 'tutoring', ${subject.id}, 'Finished job ' || n, 800, 1500, ${reviewer.id}, 'completed', now(), now() - make_interval(mins => n)
        from generate_series(1, ${TUTORS * REVIEWS_PER_TUTOR}) as n
        returning id, created_at),
      numbered as (select id, row_number() over (order by created_at) as n from jobs)
      insert into tutor_bids (request_id, tutor_id, amount_cents, status, created_at)
      select id, (${sql.param(tutorIds)}::uuid[])[1 + n % ${TUTORS}], 1000, 'accepted', now() from numbered`);
    await db.execute(sql`
      update tutoring_requests set accepted_bid_id = b.id from tutor_bids b
      where b.request_id = tutoring_requests.id and b.status = 'accepted' and tutoring_requests.student_id = ${reviewer.id}`);
    await db.execute(sql`
      insert into reviews (request_id, student_id, bid_id, tutor_id, rating, body, created_at)
      select r.id, r.student_id, b.id, b.tutor_id, 1 + (abs(hashtext(r.id::text)) % 5), 'Clear and patient.', r.created_at
      from tutoring_requests r join tutor_bids b on b.id = r.accepted_bid_id where r.student_id = ${reviewer.id}`);
    await db.execute(sql`
      update users set jobs_completed = s.jobs, review_count = s.jobs, review_rating_sum = s.stars
      from (select tutor_id, count(*)::int as jobs, sum(rating)::int as stars from reviews group by tutor_id) as s
      where users.id = s.tutor_id`);
    await db.execute(sql`analyze`);
    const seedMs = performance.now() - startedAt;

    const [check] = (await offersPage()).json<{ offers: { reviewCount: number }[] }>().offers;
    if (check?.reviewCount !== REVIEWS_PER_TUTOR) throw new Error(`Expected ${REVIEWS_PER_TUTOR} reviews per tutor`);
    await timed(offersPage, 20);
    const withReviews = await timed(offersPage, CALLS);
    const profile = await timed(() => get(`/api/tutors/${tutorIds[0]}`), CALLS);
    const reviewsPage = await timed(() => get(`/api/tutors/${tutorIds[0]}/reviews`), CALLS);

    const round = (ms: number) => Math.round(ms * 10) / 10;
    const row = (name: string, runs: number, result: { p50_ms: number; p99_ms: number }) => ({
      case: name,
      runs,
      p50_ms: round(result.p50_ms),
      p99_ms: round(result.p99_ms),
    });
    return [
      row(`setup: ${(TUTORS * REVIEWS_PER_TUTOR).toLocaleString('en')} completed jobs with reviews`, 1, {
        p50_ms: seedMs,
        p99_ms: seedMs,
      }),
      row(`GET /api/requests/:id/bids, ${TUTORS} offers, tutors without reviews (baseline)`, CALLS, baseline),
      row(`GET /api/requests/:id/bids, ${TUTORS} offers, tutors with 1,000 reviews each`, CALLS, withReviews),
      row('GET /api/tutors/:id, a tutor with 1,000 reviews (median first response included)', CALLS, profile),
      row('GET /api/tutors/:id/reviews, first page of 1,000', CALLS, reviewsPage),
    ];
  });
}
