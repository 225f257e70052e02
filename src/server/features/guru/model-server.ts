// Guru AI through a model server (any OpenAI-compatible chat-completions API): the tutoring prompt, the question with
// its photo as a data URL, the reply streamed to the student, and the offline engine when the server fails.
import type { FastifyBaseLogger } from 'fastify';
import { aiQuestionType } from '#shared/rules/ai-question-type.ts';
import {
  streamChatCompletion,
  type ChatCompletionMessage,
  type ChatCompletionsConfig,
  type CompletionBounds,
} from '../../platform/ai/chat-completions.ts';
import type { GuruAnswer, GuruProvider, GuruQuestion } from './provider.ts';

/** The line the model ends with when a human expert would help; it becomes actionType expert_help and is not shown. */
export const EXPERT_HELP_MARKER = '[EXPERT_HELP]';

export const TUTOR_SYSTEM_PROMPT = [
  'You are Guru AI, the study assistant of Virtual Help, a tutoring marketplace. You help students learn.',
  'Explain step by step so that the student understands the method, not only the result; for homework, guide the',
  'student through it. Match the level the student shows or mentions (high school, undergraduate, graduate).',
  'Stay on educational topics; politely decline anything else. Never invent facts: say when you are not sure.',
  'Write Markdown. Write mathematics in LaTeX between $…$ inline or $$…$$ on its own line. Never write HTML.',
  'When the question is beyond what you can answer well, or the student needs ongoing help, a human expert would',
  `help: then end your answer with a line holding only ${EXPERT_HELP_MARKER}, and the student will be offered to`,
  'search for an expert or to create a request that tutors answer.',
].join(' ');

/**
 * The messages for one question: the prompt, what kind of question it looks like (SPEC.md §5), the earlier turns,
 * then the question's text and photo.
 */
function buildChatMessages(question: GuruQuestion): ChatCompletionMessage[] {
  const text = question.text.trim() || 'Please read the problem in this photo and help me solve it.';
  const kind = aiQuestionType(question.text) === 'math' ? 'a mathematics question' : 'a general study question';
  return [
    { role: 'system', content: `${TUTOR_SYSTEM_PROMPT} The student's message looks like ${kind}.` },
    ...question.history.map((turn): ChatCompletionMessage => ({
      role: turn.role === 'student' ? 'user' : 'assistant',
      content: turn.text,
    })),
    {
      role: 'user',
      content: question.image
        ? [
            { type: 'text', text },
            {
              type: 'image_url',
              image_url: {
                url: `data:${question.image.contentType};base64,${question.image.bytes.toString('base64')}`,
              },
            },
          ]
        : text,
    },
  ];
}

/** The marker and anything that could be the start of it are held back from the stream until they are known. */
function createMarkerFilter(onDelta: (text: string) => void) {
  let held = '';
  return (piece: string) => {
    const text = held + piece;
    const cut = text.lastIndexOf('[');
    const tail = cut === -1 ? '' : text.slice(cut);
    held = tail && (EXPERT_HELP_MARKER.startsWith(tail) || tail.startsWith(EXPERT_HELP_MARKER)) ? tail : '';
    const shown = text.slice(0, text.length - held.length);
    if (shown) onDelta(shown);
  };
}

/**
 * Pieces are passed on up to their last whitespace, each part through `filter` (a link has no whitespace, so it is
 * whole when filtered); the rest waits for the next piece. The stored reply is filtered whole.
 */
function createWordFilter(filter: (text: string) => string, onDelta: (text: string) => void) {
  let held = '';
  return (piece: string) => {
    const text = held + piece;
    const cut = text.search(/\s\S*$/) + 1;
    held = cut === 0 ? text : text.slice(cut);
    const shown = cut === 0 ? '' : filter(text.slice(0, cut));
    if (shown) onDelta(shown);
  };
}

/** The model's whole text as a stored reply: the marker removed, its presence as the actions. */
function toGuruAnswer(text: string): GuruAnswer {
  const hasMarker = text.includes(EXPERT_HELP_MARKER);
  return {
    reply: text.replaceAll(EXPERT_HELP_MARKER, '').trim(),
    actionType: hasMarker ? 'expert_help' : 'none',
  };
}

/** A tutoring answer is a few paragraphs: the model is asked for at most this much, and no more is read or kept. */
const REPLY_BOUNDS: CompletionBounds = { maxTokens: 1_500, maxChars: 8_000 };

export function createModelServerProvider({
  config,
  fallback,
  withoutExternalLinks,
  log,
}: {
  config: ChatCompletionsConfig;
  fallback: GuruProvider;
  /** The link rule of everyone's messages (moderation), for the text the model writes. */
  withoutExternalLinks: (text: string) => string;
  log: FastifyBaseLogger;
}): GuruProvider {
  const origin = new URL(config.baseUrl).origin;
  return {
    name: `model server ${config.model} at ${origin} (offline engine when it fails)`,
    async answer(question, onDelta) {
      let streamed = false;
      try {
        const text = await streamChatCompletion({
          config,
          bounds: REPLY_BOUNDS,
          messages: buildChatMessages(question),
          onDelta: createMarkerFilter(
            createWordFilter(withoutExternalLinks, (piece) => {
              streamed = true;
              onDelta(piece);
            }),
          ),
        });
        return toGuruAnswer(withoutExternalLinks(text));
      } catch (error) {
        log.warn({ err: error, streamed }, 'Guru AI: the model server failed, answering offline');
        return fallback.answer(question, onDelta);
      }
    },
  };
}
