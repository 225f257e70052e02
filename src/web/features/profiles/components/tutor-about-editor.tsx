import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from '#web/lib/toast.ts';
import { REVIEW } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import { updateTutorAboutSchema, type TutorAbout } from '#shared/schemas/reviews.ts';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { applyFieldErrors } from '#web/lib/form-errors.ts';
import { useUpdateTutorAbout } from '../api.ts';

/** A teacher's headline and about text, shown on their public page (moderated like chat on the server). */
export function TutorAboutEditor({ userId, about }: { userId: string; about: TutorAbout }) {
  const update = useUpdateTutorAbout();
  const form = useForm({
    resolver: zodResolver(updateTutorAboutSchema),
    defaultValues: { headline: about.headline ?? '', about: about.about ?? '' },
  });
  const { errors } = form.formState;
  const headlineLength = useWatch({ control: form.control, name: 'headline' })?.length ?? 0;
  const aboutLength = useWatch({ control: form.control, name: 'about' })?.length ?? 0;

  return (
    <form
      className="flex flex-col gap-4"
      noValidate
      onSubmit={form.handleSubmit((values) =>
        update.mutate(values, {
          onSuccess: () => toast.success('Profile updated'),
          onError: (error) => {
            if (!applyFieldErrors(form.setError, error, ['headline', 'about'])) toast.error(errorMessage(error));
          },
        }),
      )}
    >
      <FormField
        label="Headline"
        error={errors.headline?.message}
        description={`${headlineLength}/${REVIEW.headlineMax}`}
      >
        <Input {...form.register('headline')} placeholder="e.g. Patient algebra and calculus tutor" />
      </FormField>
      <FormField label="About you" error={errors.about?.message} description={`${aboutLength}/${REVIEW.aboutMax}`}>
        <Textarea
          {...form.register('about')}
          rows={5}
          placeholder="How you teach, your experience, what students get"
        />
      </FormField>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" loading={update.isPending}>
          Save
        </Button>
        <Link to={paths.tutor.getHref(userId)} className="text-sm text-primary underline-offset-4 hover:underline">
          View your public page
        </Link>
      </div>
    </form>
  );
}
