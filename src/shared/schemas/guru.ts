import { z } from 'zod';

export const guruMessages = {
  studentsOnly: 'Guru AI is for students.',
  tooManyQuestions: 'You have asked Guru AI a lot of questions in a short time. Please wait a minute and ask again.',
  oneAtATime: 'Guru AI is still answering your last question. Please wait for its answer, then ask again.',
  busy: 'Guru AI is busy answering other students right now. Please try again in a minute.',
  cleared: 'Chat cleared successfully',
  clearFailed: 'Failed to clear chat',
  botError: 'Error from Guru Bot - Failed to get a response from the AI',
} as const;

/** expert_help: the reply shows the links "Search for an Expert" and "Create a New Request". */
const guruActionTypes = ['none', 'expert_help'] as const;
export type GuruActionType = (typeof guruActionTypes)[number];

/** SPEC.md §3: a Guru AI reply is stored as structured text holding the reply, its actionType and the user's input. */
export const guruReplySchema = z.object({
  reply: z.string(),
  actionType: z.enum(guruActionTypes),
  input: z.string(),
});
export type GuruReply = z.infer<typeof guruReplySchema>;

/** A stored Guru AI message read back: its reply and actions; content that is not the structured shape is the text. */
export function parseGuruReply(content: string): Pick<GuruReply, 'reply' | 'actionType'> {
  try {
    const parsed = guruReplySchema.safeParse(JSON.parse(content));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: shown as it is
  }
  return { reply: content, actionType: 'none' };
}

/**
 * "Ask a tutor": what a Guru AI conversation hands to the standard request form, for the student to review before
 * posting. Travels in the browser's navigation state, so the form parses it rather than trusting it.
 */
export const requestDraftSchema = z.object({
  subjectName: z.string().nullable(),
  description: z.string(),
  photo: z.object({ url: z.string().startsWith('/api/chat/files/'), originalFilename: z.string() }).nullable(),
});
export type RequestDraft = z.infer<typeof requestDraftSchema>;
