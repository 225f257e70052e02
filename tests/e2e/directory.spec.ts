import { savedTutors } from '../../src/server/db/schema/tutors.ts';
import { createSubject, createTeacher } from '../support/factories.ts';
import { expect, expectNoAxeViolations, test, type Page } from './fixtures.ts';

// Find Tutors: a teacher's rate and visibility on /profile, the directory's filters in the address, the cards.

/** Full-page screenshots at 1280 and 375 px in light and dark, then axe on each (to look at the layout). */
async function lookAt(page: Page, name: string) {
  for (const [colorScheme, width] of [
    ['light', 1280],
    ['dark', 1280],
    ['light', 375],
    ['dark', 375],
  ] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page, `${name}, ${colorScheme}, ${width} px`);
    await page.screenshot({ path: `test-results/directory-${name}-${colorScheme}-${width}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a teacher sets a rate and hides from visitors; a student filters by subject and rating and opens a tutor', async ({
  page,
  db,
  signInAs,
  openBrowserAs,
}) => {
  test.slow();
  const tag = `Zebulon${Date.now()}`;
  const subject = await createSubject(db, { name: `Astronomy ${tag}` });
  const other = await createSubject(db, { name: `Geology ${tag}` });
  const teacher = await createTeacher(db, {
    subjectIds: [subject.id],
    headline: `Stars and planets ${tag}`,
    reviewCount: 4,
    reviewRatingSum: 19,
    jobsCompleted: 6,
    responseMinutes: 30,
  });
  const lowRated = await createTeacher(db, {
    subjectIds: [subject.id],
    headline: `Telescopes ${tag}`,
    reviewCount: 3,
    reviewRatingSum: 9,
  });
  const geologist = await createTeacher(db, { subjectIds: [other.id], headline: `Rocks ${tag}` });

  // The teacher sets $12.50 an hour and hides from visitors on /profile.
  const tutorPage = (await openBrowserAs(teacher.id)).page;
  await tutorPage.goto('/profile');
  await expect(tutorPage.getByRole('heading', { name: 'Rate and visibility' })).toBeVisible();
  await tutorPage.getByLabel('Hourly rate for tutoring (USD)').fill('16');
  await tutorPage.getByRole('button', { name: 'Save' }).nth(1).click();
  await expect(tutorPage.getByText('Your hourly rate must be between $8 and $15')).toBeVisible();
  await tutorPage.getByLabel('Hourly rate for tutoring (USD)').fill('12.50');
  await expect(tutorPage.getByRole('checkbox', { name: 'Visible to visitors' })).toBeChecked();
  await tutorPage.getByRole('checkbox', { name: 'Visible to visitors' }).click();
  await tutorPage.getByRole('button', { name: 'Save' }).nth(1).click();
  await expect(tutorPage.getByText('Profile updated')).toBeVisible();
  await lookAt(tutorPage, 'profile');

  // A visitor does not find the hidden tutor; the others are there.
  const visitor = await page.context().browser()!.newPage();
  await visitor.goto(`/tutors?q=${tag}`);
  await expect(visitor.getByRole('heading', { name: lowRated.username })).toBeVisible();
  await expect(visitor.getByRole('heading', { name: teacher.username })).toHaveCount(0);
  await visitor.close();

  // A student opens Find Tutors from the top bar; the VH number search is one click away.
  await signInAs('student');
  await page.goto('/chat');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Find Tutors' }).click();
  await expect(page).toHaveURL('/tutors');
  await expect(page.getByRole('heading', { name: 'Find Tutors', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Search by VH number' })).toHaveAttribute('href', '/search-experts');
  await expect(page.getByText(/Best match ranks tutors by their rating/)).toBeVisible();

  // Searches, then filters by subject and rating: each step is in the address.
  await page.getByRole('searchbox', { name: 'Search tutors' }).fill(tag);
  await page.getByRole('button', { name: 'Search' }).click();
  const tutors = page.getByRole('region', { name: 'Tutors' });
  // Best match: the rating (pulled toward 4 stars while reviews are few), completed jobs and answering fast.
  await expect(tutors.getByRole('heading', { level: 2 })).toHaveText([
    teacher.username,
    geologist.username,
    lowRated.username,
  ]);
  // The box shows the address's state, which changes a moment after the click.
  await page.getByRole('checkbox', { name: subject.name }).click();
  await expect(page.getByRole('checkbox', { name: subject.name })).toBeChecked();
  await expect(page).toHaveURL(new RegExp(`subjects=${subject.id}`));
  await expect(tutors.getByRole('heading', { name: geologist.username })).toHaveCount(0);
  await page.getByLabel('Minimum rating').selectOption('4');
  await expect(page).toHaveURL(/minRating=4/);
  await expect(tutors.getByRole('heading', { level: 2 })).toHaveText([teacher.username]);
  const card = tutors.getByRole('article').filter({ hasText: teacher.username });
  await expect(card).toContainText('$12.50/hour');
  await expect(card).toContainText('4.8');
  await expect(card).toContainText('6 jobs completed');
  await expect(card).toContainText('Usually answers within 30 minutes');
  await lookAt(page, 'filtered');
  // On a phone the filters fold away behind one button.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole('button', { name: 'Show filters' }).click();
  await expect(page.getByLabel('Minimum rating')).toBeVisible();
  await expectNoAxeViolations(page, 'the filters open at 375 px');
  await page.screenshot({ path: 'test-results/directory-filters-open-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The back button takes the rating filter off again.
  await page.goBack();
  await expect(page).not.toHaveURL(/minRating/);
  await expect(tutors.getByRole('heading', { name: lowRated.username })).toBeVisible();

  // Nothing matches: the page says so and clears the filters.
  await page.getByLabel('Highest rate').selectOption('800');
  // The lowest rate offers none above the highest.
  await expect(page.getByLabel('Lowest rate').locator('option')).toHaveText(['Any', '$8']);
  await expect(page.getByRole('heading', { name: 'No tutors match your search' })).toBeVisible();
  await expectNoAxeViolations(page, 'no tutors match');
  await page.getByRole('button', { name: 'Clear filters' }).last().click();
  await expect(page).toHaveURL('/tutors');

  // A card opens the tutor's page.
  await page.goto(`/tutors?q=${tag}&sort=rating`);
  await tutors.getByRole('link', { name: teacher.username }).click();
  await expect(page).toHaveURL(`/tutors/${teacher.id}`);
  await expect(page.getByRole('heading', { name: teacher.username, level: 1 })).toBeVisible();
});

test('a bad filter in the address shows its message and a way out', async ({ page, allowConsoleError }) => {
  allowConsoleError(/status of 400/);
  await page.goto('/tutors?minRating=2');
  await expect(page.getByRole('alert')).toContainText('Please choose a minimum rating from the list');
  await expectNoAxeViolations(page, 'a bad filter');
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page).toHaveURL('/tutors');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a student opens Saved Tutors from the user menu; a long name and headline wrap on a phone', async ({
  page,
  db,
  signInAs,
}) => {
  const subject = await createSubject(db);
  const tutor = await createTeacher(db, {
    subjectIds: [subject.id],
    username: `Maximiliana-Konstantinou${Date.now() % 100_000}`,
    headline: 'Patient algebra, calculus and statistics tutor for exams and homework help',
    hourlyRateCents: 1500,
  });
  const student = await signInAs('student');
  await db.insert(savedTutors).values({ studentId: student.id, tutorId: tutor.id });

  await page.goto('/tutors');
  await expect(page.getByRole('link', { name: 'Saved tutors' })).toHaveAttribute('href', '/tutors/saved');
  await page.getByRole('button', { name: new RegExp(`User menu for ${student.username}`) }).click();
  await page.getByRole('menuitem', { name: 'Saved tutors' }).click();
  await expect(page).toHaveURL('/tutors/saved');
  const card = page.getByRole('list', { name: 'Saved tutors' }).getByRole('article');
  await expect(card.getByRole('heading', { name: tutor.username })).toBeVisible();
  await lookAt(page, 'saved');

  // On a phone the name and the headline are whole, not cut after a few words.
  await page.setViewportSize({ width: 375, height: 800 });
  for (const text of [card.getByRole('heading'), card.getByText(/^Patient algebra/)]) {
    expect(await text.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    expect(await text.evaluate((element) => element.scrollHeight <= element.clientHeight)).toBe(true);
  }
});
