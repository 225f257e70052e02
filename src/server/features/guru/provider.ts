import type { GuruReply } from '#shared/schemas/guru.ts';

// What an answering engine is given and gives back: the offline engine and a model server both answer this way.

/** A student's question as a provider reads it: the text, the photo sent with it, and the turns before it. */
export type GuruQuestion = {
  text: string;
  image: { bytes: Buffer; contentType: string } | null;
  /** The latest earlier turns of the conversation, oldest first (for a model: the student's level, the topic). */
  history: { role: 'student' | 'assistant'; text: string }[];
};
export type GuruAnswer = Omit<GuruReply, 'input'>;
/** Answers a question; a provider that streams hands each piece of its reply to `onDelta` as it is written. */
export type GuruProvider = {
  name: string;
  answer(question: GuruQuestion, onDelta: (text: string) => void): Promise<GuruAnswer>;
};
