import { Send } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { toast } from '#web/lib/toast.ts';
import type { z } from 'zod';
import type { contactMessageSchema, ContactMessageInput } from '#shared/schemas/contact.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { useSendContactMessage } from '../api.ts';
import { applyFieldErrors } from '#web/lib/form-errors.ts';
import { Form } from '#web/components/ui/form.tsx';
import { lazyZodResolver } from '#web/lib/lazy-zod-resolver.ts';

// The form's checks (zod and the schema) load as someone starts filling it in.
const contactMessageSchemaResolver = lazyZodResolver(
  async () => (await import('#shared/schemas/contact.ts')).contactMessageSchema,
);

type ContactFormValues = z.input<typeof contactMessageSchema>;

const fieldNames = ['name', 'email', 'subject', 'message'] as const satisfies readonly (keyof ContactFormValues)[];

const emptyValues: ContactFormValues = { name: '', email: '', subject: '', message: '' };

export function ContactForm() {
  const form = useForm<ContactFormValues, unknown, ContactMessageInput>({
    resolver: contactMessageSchemaResolver,
    defaultValues: emptyValues,
  });
  const { errors } = form.formState;
  const sendMessage = useSendContactMessage();

  const onSubmit = form.handleSubmit((values) =>
    sendMessage.mutate(values, {
      onSuccess: () => {
        toast.success('Message Sent', { description: 'Thank you for reaching out. We will get back to you soon.' });
        form.reset(emptyValues);
      },
      onError: (error) => {
        // Field problems go next to the fields; anything else is one notice.
        if (!applyFieldErrors(form.setError, error, fieldNames)) toast.error(errorMessage(error));
      },
    }),
  );

  // isSubmitting covers the wait for the form's checks to arrive, so a second press sends nothing twice.
  const isSending = form.formState.isSubmitting || sendMessage.isPending;

  return (
    <Form
      noValidate
      onSubmit={onSubmit}
      onFocus={contactMessageSchemaResolver.preload}
      aria-describedby="contact-form-note"
      className="flex flex-col gap-5"
    >
      <p id="contact-form-note" className="text-sm text-muted-foreground">
        All fields are required.
      </p>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Name" error={errors.name?.message} required>
          <Input autoComplete="name" maxLength={100} {...form.register('name')} />
        </FormField>
        <FormField label="Email" error={errors.email?.message} required>
          <Input type="email" autoComplete="email" inputMode="email" maxLength={254} {...form.register('email')} />
        </FormField>
      </div>
      <FormField label="Subject" error={errors.subject?.message} required>
        <Input maxLength={200} {...form.register('subject')} />
      </FormField>
      <FormField label="Message" error={errors.message?.message} required>
        <Textarea rows={6} maxLength={5000} {...form.register('message')} />
      </FormField>
      <Button type="submit" size="lg" loading={isSending} className="w-full sm:w-fit">
        {!isSending && <Send aria-hidden="true" />}
        {isSending ? 'Sending...' : 'Send Message'}
      </Button>
    </Form>
  );
}
