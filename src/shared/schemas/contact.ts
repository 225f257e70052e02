import { z } from 'zod';
import { requiredText } from './text-fields.ts';

// The contact form (SPEC.md §3 "Forms: contact", §5 "Contact form: all four fields required").
// Shared by the web form and POST /api/contact so both reject the same input with the same words.
export const contactMessageSchema = z.object({
  name: requiredText('Name is required', 100, 'Name must be at most 100 characters'),
  // The string method (not z.email()) so the address is trimmed before it is checked.
  email: z
    .string({ error: 'Invalid email address' })
    .trim()
    .max(254, 'Email must be at most 254 characters')
    .pipe(z.email('Invalid email address')),
  subject: requiredText('Subject is required', 200, 'Subject must be at most 200 characters'),
  message: requiredText('Message is required', 5000, 'Message must be at most 5000 characters'),
});

export type ContactMessageInput = z.infer<typeof contactMessageSchema>;
