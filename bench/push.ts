// Push fan-out (embedded database): one new job in a subject whose tutors all have a device with push, from the post
// to the last push taken by a local push service (decrypted and checked there), 1,000 tutors against 100 in the same
// run. Each push is encrypted and signed by the claimed delivery work, as in production.
import { sql } from 'drizzle-orm';
import { createSessionCookie, createUser } from '../tests/support/factories.ts';
import { startPushReceiver } from '../tests/support/push-receiver.ts';
import { withEmbeddedApp } from './embedded-app.ts';

const ROUNDS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchPush() {
  const receiver = await startPushReceiver();
  try {
    return await withEmbeddedApp(
      'push',
      async ({ app, db }) => {
        const student = await createUser(db, { role: 'student' });
        const studentCookie = (await createSessionCookie(db, student.id)).header;
        const subjects = (await db.execute<{ id: string }>(sql`select id from subjects order by name limit 2`)).rows;

        /** `count` confirmed tutors of the subject, each signed in on one device subscribed to pushes. */
        async function tutorsWithPush(subjectId: string, count: number, prefix: string) {
          const created = await db.execute<{ id: string }>(sql`
            with created as (
              insert into users (name, username, email, email_verified, role, vh_number)
              select ${prefix} || n, ${prefix} || n, ${prefix} || n || '@example.com', true, 'teacher', 100 + n % 900
              from generate_series(1, ${count}) as n returning id),
            specialized as (insert into teacher_specializations (teacher_id, subject_id)
              select id, ${subjectId} from created)
            select id from created`);
          const devices = created.rows.map(() => receiver.subscribe());
          const ids = created.rows.map((row) => row.id);
          await db.execute(sql`
            with session as (
              insert into sessions (user_id, token, expires_at)
              select user_id, md5(random()::text), now() + interval '1 day' from unnest(${sql.param(ids)}::uuid[]) as user_id
              returning id, user_id)
            insert into push_subscriptions (user_id, session_id, endpoint, p256dh, auth)
            select session.user_id, session.id, device.endpoint, device.p256dh, device.auth
            from session join unnest(${sql.param(ids)}::uuid[], ${sql.param(devices.map((d) => d.json.endpoint))}::text[],
              ${sql.param(devices.map((d) => d.json.keys.p256dh))}::text[], ${sql.param(devices.map((d) => d.json.keys.auth))}::text[])
              as device(user_id, endpoint, p256dh, auth) on device.user_id = session.user_id`);
          return new Set(devices.map((device) => device.id));
        }

        let address = 0;
        /** Posts one job and waits until every device of the subject's tutors has its push; the seconds it took. */
        async function oneJob(subjectId: string, devices: Set<string>) {
          const before = receiver.received.length;
          const startedAt = performance.now();
          const posted = await app.inject({
            method: 'POST',
            url: '/api/requests',
            headers: { cookie: studentCookie },
            remoteAddress: `10.9.0.${++address}`,
            payload: {
              type: 'tutoring',
              subjectId,
              description: 'Benchmark job: help with a topic I find hard.',
              budgetMinCents: 800,
              budgetMaxCents: 1500,
            },
          });
          if (posted.statusCode !== 201) throw new Error(`Unexpected status ${posted.statusCode}: ${posted.body}`);
          const arrived = () =>
            receiver.received.slice(before).filter(({ subscriptionId }) => devices.has(subscriptionId)).length;
          while (arrived() < devices.size) {
            if (performance.now() - startedAt > 300_000) throw new Error(`only ${arrived()} pushes arrived`);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          if (receiver.failures.length > 0) throw new Error(`pushes that did not check out: ${receiver.failures[0]}`);
          return (performance.now() - startedAt) / 1000;
        }

        const rows = [];
        for (const [index, count] of [100, 1_000].entries()) {
          const subjectId = subjects[index]!.id;
          const devices = await tutorsWithPush(subjectId, count, `push${count}-`);
          const seconds: number[] = [];
          for (let round = 0; round < ROUNDS; round++) seconds.push(await oneJob(subjectId, devices));
          const s = median(seconds);
          rows.push({
            tutors: count,
            'post to last push (s)': Number(s.toFixed(2)),
            'pushes a second': Math.round(count / s),
          });
        }
        const perPush = rows.map((row) => row['post to last push (s)'] / row.tutors);
        return rows.map((row, i) => ({ ...row, 'time a push vs 100': Number((perPush[i]! / perPush[0]!).toFixed(2)) }));
      },
      { NODE_ENV: 'test', PUSH_TEST_ENDPOINT_ORIGIN: receiver.origin },
    );
  } finally {
    await receiver.close();
  }
}
