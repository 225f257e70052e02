import type { ReactNode } from 'react';
import { formatResponseTime } from '../rules/response-time.ts';
import type { TutorProfile } from '../schemas/reviews.ts';

// The facts, subjects and about text of a tutor's page: the same parts in the app's page and in the one the server
// renders for visitors (src/server/features/tutors/public-page.tsx), so the two cannot drift apart. Plain markup with
// the app's classes; the stylesheet's build reads this folder (src/web/app/styles.css).

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col rounded-lg border px-3 py-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-semibold">{value}</dd>
    </div>
  );
}

/** `subject` draws one subject's badge (the app's Badge, or its markup where the app's components cannot run). */
export function TutorProfileDetails({ tutor, subject }: { tutor: TutorProfile; subject: (name: string) => ReactNode }) {
  return (
    <>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        <Fact label="Jobs completed" value={String(tutor.jobsCompleted)} />
        <Fact
          label="Average rating"
          value={tutor.ratingAverage === null ? '–' : `${tutor.ratingAverage.toFixed(1)} / 5 (${tutor.reviewCount})`}
        />
        <Fact
          label="Usually answers within"
          value={tutor.medianFirstResponseMinutes === null ? '–' : formatResponseTime(tutor.medianFirstResponseMinutes)}
        />
      </dl>
      {tutor.specializations.length > 0 && (
        <ul aria-label="Subjects" className="flex flex-wrap gap-2">
          {tutor.specializations.map(({ id, name }) => (
            <li key={id}>{subject(name)}</li>
          ))}
        </ul>
      )}
      {tutor.about && (
        <section aria-labelledby="about-heading" className="flex flex-col gap-1">
          <h2 id="about-heading" className="font-semibold">
            About
          </h2>
          <p className="text-sm break-words whitespace-pre-line">{tutor.about}</p>
        </section>
      )}
    </>
  );
}
