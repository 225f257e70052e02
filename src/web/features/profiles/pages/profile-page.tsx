import { CircleAlert, RotateCw } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { ChangeAvatarDialog } from '#web/components/change-avatar-dialog.tsx';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useProfile, useSetProfileImage } from '../api.ts';
import { SpecializationsEditor } from '../components/specializations-editor.tsx';
import { TutorAboutEditor } from '../components/tutor-about-editor.tsx';
import { TutorListingEditor } from '../components/tutor-listing-editor.tsx';

const roleLabels = { student: 'Student', teacher: 'Teacher' } as const;

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-baseline sm:gap-4">
      <dt className="text-sm text-muted-foreground sm:w-36 sm:shrink-0">{label}</dt>
      <dd className="min-w-0 font-medium break-words">{children}</dd>
    </div>
  );
}

function ProfileSkeleton() {
  return (
    <div className="grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
      <span role="status" className="sr-only">
        Loading your profile
      </span>
      <Card className="items-center px-6">
        <Skeleton className="size-28 rounded-full" />
        <Skeleton className="h-6 w-36" />
        <Skeleton className="h-5 w-24" />
        <Skeleton className="h-9 w-36" />
      </Card>
      <Card className="px-6">
        <Skeleton className="h-6 w-40" />
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-5 w-full max-w-md" />
        ))}
      </Card>
    </div>
  );
}

export function ProfilePage() {
  useDocumentTitle('Profile');
  const { data: profile, isPending, isError, error, refetch, isRefetching } = useProfile();
  const setProfileImage = useSetProfileImage();
  const detailsHeadingId = useId();
  const subjectsHeadingId = useId();

  return (
    <Container className="flex flex-col gap-8 py-10 sm:py-14">
      <PageHeader title="Profile" description="Your account details and how others see you on Virtual Help." />

      {isPending ? (
        <ProfileSkeleton />
      ) : isError ? (
        <EmptyState
          role="alert"
          icon={<CircleAlert />}
          title="Error fetching profile"
          description={errorMessage(error)}
          action={
            <Button onClick={() => void refetch()} loading={isRefetching}>
              {!isRefetching && <RotateCw aria-hidden="true" />}
              Retry
            </Button>
          }
        />
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
          <Card className="items-center px-6 text-center">
            <Avatar name={profile.username} src={profile.image} className="size-28 text-4xl" />
            <div className="flex min-w-0 max-w-full flex-col items-center gap-2">
              <p className="max-w-full truncate text-xl font-semibold">{profile.username}</p>
              <Badge variant={profile.role === 'teacher' ? 'info' : 'success'}>{roleLabels[profile.role]}</Badge>
              <p className="text-sm text-muted-foreground">VH number {profile.vhNumber}</p>
            </div>
            <ChangeAvatarDialog
              displayName={profile.username}
              currentImage={profile.image}
              onUploaded={setProfileImage}
            />
          </Card>

          <div className="flex min-w-0 flex-col gap-6">
            <Card>
              <CardHeader>
                <h2 id={detailsHeadingId} className="text-lg leading-snug font-semibold">
                  Account details
                </h2>
              </CardHeader>
              <CardContent>
                <dl aria-labelledby={detailsHeadingId} className="divide-y">
                  <Detail label="Username">{profile.username}</Detail>
                  <Detail label="E-mail">{profile.email}</Detail>
                  <Detail label="Role">{roleLabels[profile.role]}</Detail>
                  <Detail label="VH number">{profile.vhNumber}</Detail>
                </dl>
                <p className="mt-3 text-sm text-muted-foreground">
                  Your VH number is your public Virtual Help number: others can find you with it.
                </p>
              </CardContent>
            </Card>

            {profile.role === 'teacher' && (
              <Card>
                <CardHeader>
                  <h2 className="text-lg leading-snug font-semibold">Public profile</h2>
                  <CardDescription>
                    Students see your headline and about text on your tutor page, next to your rating and reviews. No
                    contact details: they are refused as in chat.
                  </CardDescription>
                </CardHeader>
                <CardContent>
                  <TutorAboutEditor userId={profile.id} about={profile} />
                </CardContent>
              </Card>
            )}

            {profile.role === 'teacher' && (
              <Card>
                <CardHeader>
                  <h2 className="text-lg leading-snug font-semibold">Rate and visibility</h2>
                  <CardDescription>
                    Your hourly rate for tutoring, within the tutoring budget range students choose from, and who can
                    see your profile.
                  </CardDescription>
                </CardHeader>
                <CardContent>
                  <TutorListingEditor listing={profile} />
                </CardContent>
              </Card>
            )}

            {profile.role === 'teacher' && (
              <Card>
                <CardHeader>
                  <h2 id={subjectsHeadingId} className="text-lg leading-snug font-semibold">
                    Specializations
                  </h2>
                  <CardDescription>
                    The subjects you teach. You see students&apos; requests in these subjects under Find Jobs.
                  </CardDescription>
                </CardHeader>
                <CardContent>
                  <SpecializationsEditor specializations={profile.specializations} headingId={subjectsHeadingId} />
                </CardContent>
              </Card>
            )}
          </div>
        </div>
      )}
    </Container>
  );
}
