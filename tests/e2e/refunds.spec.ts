import { randomUUID } from 'node:crypto';
import { meetings } from '../../src/server/db/schema/meetings.ts';
import { paths } from '../../src/shared/paths.ts';
import { createSubAdmin, createUser } from '../support/factories.ts';
import { writePaidJob } from '../support/paid-job.ts';
import { MINUTE_MS } from '../support/time.ts';
import { expect, expectNoAxeViolations, test, type Page } from './fixtures.ts';

// Refunds as the terms allow them: a session the tutor missed, asked for by the student, contested by the tutor,
// decided by an admin with the evidence in view.

/** Full-page screenshots at 1280 and 375 px, when REFUND_SCREENSHOTS is set (to look at the layout). */
async function screenshots(page: Page, name: string) {
  if (!process.env.REFUND_SCREENSHOTS) return;
  await page.screenshot({ path: `test-results/refunds-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `test-results/refunds-${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a student asks for a refund of a session the tutor missed, the tutor contests, an admin refunds it', async ({
  page,
  db,
  signInAsUser,
  openBrowserAs,
}) => {
  test.slow();
  const student = await createUser(db, { role: 'student' });
  const tutor = await createUser(db, { role: 'teacher' });
  const { requestId } = await writePaidJob(db, { studentId: student.id, tutorId: tutor.id, amountCents: 4_000 });
  // The session started half an hour ago; the tutor never pressed Join.
  await db.insert(meetings).values({
    creatorId: tutor.id,
    title: 'Algebra session',
    meetingId: `VirtualHelp-${randomUUID()}`,
    joinUrl: 'https://meet.jit.si/x',
    startTime: new Date(Date.now() - 30 * MINUTE_MS),
    requestId,
  });

  await signInAsUser(student.id);
  await page.goto(paths.chat.getHref(tutor.id));
  await page.getByRole('button', { name: 'Ask for a refund' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ask for a refund' });
  await expect(dialog).toContainText('$40 is held for this job.');
  // Any other reason is answered with the terms' words, and nothing can be sent.
  await dialog.getByLabel('Something else').check();
  await expect(dialog.getByText('Not refundable')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Ask for a refund' })).toBeDisabled();
  await dialog.getByLabel('The tutor missed a scheduled session').check();
  await expect(dialog.getByLabel('The session the tutor missed')).toContainText('Algebra session');
  await expectNoAxeViolations(page, 'the refund form');
  await screenshots(page, 'ask');
  await dialog.getByRole('button', { name: 'Ask for a refund' }).click();
  await expect(page.getByText(/You asked for a refund: the tutor missed a scheduled session/)).toBeVisible();

  const tutorSide = await openBrowserAs(tutor.id);
  await tutorSide.page.goto(paths.chat.getHref(student.id));
  await expect(
    tutorSide.page.getByText(/asked for a refund of \$40: the tutor missed a scheduled session/),
  ).toBeVisible();
  tutorSide.page.once('dialog', (prompt) => void prompt.accept('I waited in the room.'));
  await tutorSide.page.getByRole('button', { name: 'Contest' }).click();
  await expect(tutorSide.page.getByText('An admin is deciding the refund request.')).toBeVisible();

  const admin = await openBrowserAs((await createSubAdmin(db, ['payments'])).id);
  await admin.page.goto(`${paths.admin.payments.getHref()}?tab=disputes`);
  const dispute = admin.page.getByRole('list', { name: 'Disputes' }).getByRole('listitem').filter({
    hasText: student.username,
  });
  await expect(dispute).toContainText('The tutor contested it: “I waited in the room.”');
  await dispute.getByRole('button', { name: 'Show evidence and decide' }).click();
  await expect(dispute).toContainText('Algebra session');
  await expect(dispute).toContainText('nobody joined');
  await expectNoAxeViolations(admin.page, 'a dispute with its evidence');
  await screenshots(admin.page, 'dispute');
  await dispute.getByLabel('Full refund').check();
  await dispute.getByLabel('Note to both').fill('No join by the tutor was recorded.');
  await dispute.getByRole('button', { name: 'Decide' }).click();
  await expect(dispute).toHaveCount(0);

  await page.reload();
  await expect(page.getByText('$40 was refunded (the tutor missed a scheduled session).')).toBeVisible();
  await screenshots(page, 'refunded');
});
