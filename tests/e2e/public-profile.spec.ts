import { eq } from 'drizzle-orm';
import { users } from '../../src/server/db/schema/auth.ts';
import { tutoringRequests } from '../../src/server/db/schema/requests.ts';
import { reviews } from '../../src/server/db/schema/reviews.ts';
import { createBid, createRequest, createSubject, createTeacher, createUser } from '../support/factories.ts';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';

// A visitor who is not signed in finds a tutor's page in sitemap.xml, reads it (rendered by the server, no script),
// and is sent to sign up from "Sign up to ask {name}".

test('a visitor opens a tutor’s public page found in sitemap.xml and is sent to sign up', async ({
  page,
  db,
  allowConsoleError,
}) => {
  test.slow();
  const tag = `Quillon${Date.now()}`;
  const subject = await createSubject(db, { name: `Marine biology ${tag}` });
  const tutor = await createTeacher(db, {
    subjectIds: [subject.id],
    headline: 'Patient marine biology tutor for school and first-year university',
    about: 'I have taught biology for eight years.\nI explain with drawings and short quizzes.',
    jobsCompleted: 1,
    reviewCount: 1,
    reviewRatingSum: 5,
    responseMinutes: 25,
  });
  const student = await createUser(db, { role: 'student' });
  const request = await createRequest(db, { studentId: student.id, subjectId: subject.id, status: 'completed' });
  const bid = await createBid(db, { requestId: request.id, tutorId: tutor.id, status: 'accepted' });
  await db.update(tutoringRequests).set({ acceptedBidId: bid.id }).where(eq(tutoringRequests.id, request.id));
  await db.insert(reviews).values({
    requestId: request.id,
    studentId: student.id,
    bidId: bid.id,
    tutorId: tutor.id,
    rating: 5,
    body: 'Clear explanations of coral reefs, and very patient with my questions.',
    reply: 'Thank you, good luck with the exam!',
  });
  const hidden = await createTeacher(db, { subjectIds: [subject.id] });
  await db.update(users).set({ isVisibleToVisitors: false }).where(eq(users.id, hidden.id));

  // The sitemap names the tutor's page (not the hidden tutor's).
  const sitemap = await (await page.request.get('/sitemap.xml')).text();
  const address = sitemap.match(new RegExp(`<loc>([^<]+/tutors/${tutor.id})</loc>`))?.[1];
  expect(address).toBeDefined();
  expect(sitemap).not.toContain(hidden.id);

  await page.goto(address!);
  await expect(page.getByRole('heading', { name: tutor.username, level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(`${tutor.username} – Tutor on Virtual Help`);
  await expect(page.getByText('Patient marine biology tutor')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Subjects' })).toContainText(`Marine biology ${tag}`);
  await expect(page.getByText('Clear explanations of coral reefs')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'coral reefs' })).toContainText('Student');
  await expect(page.locator('body')).not.toContainText(student.username);
  await expect(page.locator('body')).not.toContainText('VH number');
  // Rendered by the server: no script but the JSON-LD.
  await expect(page.locator('script:not([type="application/ld+json"])')).toHaveCount(0);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(jsonLd).toMatchObject({ '@type': 'Person', name: tutor.username, aggregateRating: { ratingValue: 5 } });
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', address!);

  for (const [colorScheme, width] of [
    ['light', 1280],
    ['dark', 1280],
    ['light', 375],
    ['dark', 375],
  ] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page, `public profile, ${colorScheme}, ${width} px`);
    await page.screenshot({ path: `test-results/public-profile-${colorScheme}-${width}.png`, fullPage: true });
  }

  await page.getByRole('link', { name: `Sign up to ask ${tutor.username}` }).click();
  await expect(page).toHaveURL('/auth/register?role=student');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // A hidden tutor's page is not found (the browser reports the 404).
  allowConsoleError(/Failed to load resource: the server responded with a status of 404/);
  const response = await page.goto(`/tutors/${hidden.id}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Tutor not found' })).toBeVisible();
});
