// What paying costs: accepting an offer through a checkout paid with the test card (accept, then pay, until the job
// exists) against the plain accept of PAYMENTS_PROVIDER=none, and completing a paid job (which releases its money to
// the tutor's available earnings) against the plain completion; both apps on fresh embedded databases, measured in
// the same run, rounds interleaved so that neither gets the quieter machine.
import { ledgerAccountBalance } from '../src/server/features/payments/service.ts';
import { TEST_CARD } from '../tests/support/checkout.ts';
import {
  createBid,
  createRequest,
  createSessionCookie,
  createSubject,
  createTeacher,
  createUser,
} from '../tests/support/factories.ts';
import { withEmbeddedApp } from './embedded-app.ts';
import { timed } from './marketplace.ts';

const ROUNDS = 3;
const JOBS_PER_ROUND = 40;
const WARM_UP_JOBS = 5;

type EmbeddedApp = Parameters<Parameters<typeof withEmbeddedApp>[1]>[0];
type Offer = { cookie: string; requestId: string; bidId: string; tutorId: string };

/** New offers, each of a new tutor on a new student's request, with the student's session. */
async function newOffers({ db }: EmbeddedApp, count: number) {
  const offers: Offer[] = [];
  const subject = await createSubject(db);
  for (let i = 0; i < count; i++) {
    const student = await createUser(db, { role: 'student' });
    const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
    const tutor = await createTeacher(db, { subjectIds: [subject.id] });
    const bid = await createBid(db, { requestId: request.id, tutorId: tutor.id, amountCents: 2_500 });
    offers.push({
      cookie: (await createSessionCookie(db, student.id)).header,
      requestId: request.id,
      bidId: bid.id,
      tutorId: tutor.id,
    });
  }
  return offers;
}

const post = ({ app }: EmbeddedApp, cookie: string, url: string, payload?: object) =>
  app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });

/** The accept as a student presses it; with a paying provider, the pay of its checkout with the test card too. */
async function acceptToJob(env: EmbeddedApp, { cookie, requestId, bidId }: Offer) {
  const accepted = await post(env, cookie, `/api/requests/${requestId}/bids/${bidId}/accept`);
  const answer = accepted.json<{ outcome: 'accepted' | 'checkout'; checkoutId?: string }>();
  if (accepted.statusCode !== 200 || answer.outcome === 'accepted') return accepted;
  return post(env, cookie, `/api/checkouts/${answer.checkoutId}/pay`, { card: TEST_CARD });
}

const complete = (env: EmbeddedApp, { cookie, requestId }: Offer) =>
  post(env, cookie, `/api/requests/${requestId}/complete`);

/** One round on one app: jobs from offers, then their completion, each timed (p50 and p99 of the round). */
async function round(env: EmbeddedApp) {
  const offers = await newOffers(env, JOBS_PER_ROUND);
  const toAccept = [...offers];
  const accept = await timed(() => acceptToJob(env, toAccept.shift()!), offers.length);
  const toComplete = [...offers];
  const completion = await timed(() => complete(env, toComplete.shift()!), offers.length);
  return { accept, completion, lastTutorId: offers.at(-1)!.tutorId };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round1 = (ms: number) => Math.round(ms * 10) / 10;

export async function benchPayments() {
  // Not production, which refuses the test provider; the same for both apps.
  const env = (provider: string) => ({ NODE_ENV: 'development', PAYMENTS_PROVIDER: provider });
  return withEmbeddedApp(
    'pay-none',
    (free) =>
      withEmbeddedApp(
        'pay-test',
        async (paid) => {
          for (const app of [free, paid]) {
            for (const offer of await newOffers(app, WARM_UP_JOBS)) {
              await acceptToJob(app, offer);
              await complete(app, offer);
            }
          }
          const rounds: { free: Awaited<ReturnType<typeof round>>; paid: Awaited<ReturnType<typeof round>> }[] = [];
          for (let i = 0; i < ROUNDS; i++) rounds.push({ free: await round(free), paid: await round(paid) });
          // The paid completion did release: the last job's tutor has the $25 less 15 % available.
          const available = await ledgerAccountBalance({
            db: paid.db,
            account: { kind: 'tutor_earnings_available', userId: rounds.at(-1)!.paid.lastTutorId },
          });
          if (available !== 2_125) throw new Error(`The paid completion left ${available} cents available, not 2125`);

          const row = (name: string, pick: (r: (typeof rounds)[number]) => { p50_ms: number; p99_ms: number }) => ({
            case: name,
            runs: `${ROUNDS} × ${JOBS_PER_ROUND}`,
            p50_ms: round1(median(rounds.map((r) => pick(r).p50_ms))),
            p99_ms: round1(median(rounds.map((r) => pick(r).p99_ms))),
          });
          const plainAccept = row('accept, PAYMENTS_PROVIDER=none (the job at once)', (r) => r.free.accept);
          const checkout = row('accept → pay with the test card → job (checkout-to-job)', (r) => r.paid.accept);
          const plainCompletion = row('complete, PAYMENTS_PROVIDER=none', (r) => r.free.completion);
          const release = row('complete → held money released to available earnings', (r) => r.paid.completion);
          const ratio = (paidRow: typeof checkout, freeRow: typeof checkout) => ({
            ratio_p50: round1(paidRow.p50_ms / freeRow.p50_ms),
            ratio_p99: round1(paidRow.p99_ms / freeRow.p99_ms),
          });
          return [
            { ...plainAccept, ratio_p50: '', ratio_p99: '' },
            { ...checkout, ...ratio(checkout, plainAccept) },
            { ...plainCompletion, ratio_p50: '', ratio_p99: '' },
            { ...release, ...ratio(release, plainCompletion) },
          ];
        },
        env('test'),
      ),
    env('none'),
  );
}
