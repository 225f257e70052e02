// Guru AI's answers: told of each stored question by the chat, it asks its provider (a model server, or the offline
// engine) and stores the reply through the chat, with a typing indicator and the reply's pieces as they stream in.
import type { FastifyBaseLogger } from 'fastify';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { AI_USER_ID } from '#shared/constants.ts';
import { imageSizeMessages } from '#shared/rules/image-size.ts';
import { parseGuruReply, type GuruReply } from '#shared/schemas/guru.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { getMessageFile, listAssistantMessages, storeAssistantReply, type Assistant } from '../chat/service.ts';
import type { Moderation } from '../moderation/service.ts';
import { createModelServerProvider } from './model-server.ts';
import { createMathSolver, type MathSolver } from './math-solver.ts';
import type { MathAnswer } from './offline-math.ts';
import { createPhotoReader, PhotoTooLarge, type PhotoReader } from './photo-reader.ts';
import type { GuruAnswer, GuruProvider, GuruQuestion } from './provider.ts';
import { createQuestionTurns, type QuestionTurn } from './question-turns.ts';

export const CANNOT_SOLVE_OFFLINE =
  "I can't solve this one offline. A tutor can help: search for an expert, or create a new request and teachers will offer to help.";

/** SPEC.md §8 "Error Analyzing Image": the photo had no printed text the offline reader could make out. */
export const IMAGE_UNREADABLE =
  '**Error Analyzing Image**\n\nI could not read a printed question in this photo. Type it in, or send a sharper, well-lit photo of printed text. A tutor can also help.';

/** The photo's header states more pixels than the reader takes: it is refused before it is decoded. */
export const IMAGE_TOO_LARGE_TO_READ = `**Error Analyzing Image**\n\n${imageSizeMessages.tooLargeToRead}`;

/** Reading a photo takes a second or two; one that takes longer than this is given up. */
const PHOTO_READ_TIMEOUT_MS = 20_000;
/** The engine answers in milliseconds (bench/guru.ts); a question that keeps it busy longer is declined. */
const MATH_TIMEOUT_MS = 3_000;
/** Earlier turns a model server is given with each question. */
const HISTORY_TURNS = 6;
/**
 * Questions answered at once, one per student: with the engine's time bound, the last of them waits at most about
 * half a minute for the engine; beyond it students are told Guru AI is busy.
 */
const QUESTIONS_IN_FLIGHT = 10;
/** A held turn outlasts the longest answer by this much before another server may give it to a new question. */
const TURN_HOLD_MARGIN_MS = 10_000;

/** The engine's answer as a reply: the result in math with its steps, or declined with the actions. */
function formatOfflineAnswer(result: MathAnswer, { readFromPhoto }: { readFromPhoto?: string } = {}): GuruAnswer {
  const read = readFromPhoto
    ? `I read this in your photo: **${readFromPhoto.replace(/[*_`\\[\]<>$]/g, '')}** (if it says something else, type the question).\n\n`
    : '';
  if (!result.solved) return { reply: `${read}${CANNOT_SOLVE_OFFLINE}`, actionType: 'expert_help' };
  const steps = result.steps.map((step, index) => `${index + 1}. ${step}`).join('\n');
  return {
    reply: `${read}$$${result.latex}$$\n\n**Steps**\n\n${steps}\n\n**Answer:** ${result.answer}`,
    actionType: 'none',
  };
}

/**
 * The offline assistant: the math engine, and for a photo the printed text in it (alone, then after the typed words,
 * as in "solve" + a photo of 2x + 3 = 7). Lines read from a photo are one question each, so that a photographed
 * system of equations reads as a system.
 */
function createOfflineProvider({
  mathSolver,
  photoReader,
}: {
  mathSolver: MathSolver;
  photoReader: PhotoReader;
}): GuruProvider {
  return {
    name: 'offline math engine (nerdamer-prime) and photo reader (tesseract.js)',
    async answer(question) {
      if (!question.image) return formatOfflineAnswer(await mathSolver.solve(question.text));
      let read: string;
      try {
        read = await photoReader.read(question.image.bytes);
      } catch (error) {
        const reply = error instanceof PhotoTooLarge ? IMAGE_TOO_LARGE_TO_READ : IMAGE_UNREADABLE;
        return { reply, actionType: 'expert_help' };
      }
      const lines = read
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      if (lines.length === 0) return { reply: IMAGE_UNREADABLE, actionType: 'expert_help' };
      const fromPhoto = lines.join(', ');
      let result = await mathSolver.solve(fromPhoto);
      if (!result.solved && question.text.trim())
        result = await mathSolver.solve(`${question.text.trim()} ${fromPhoto}`);
      return formatOfflineAnswer(result, { readFromPhoto: fromPhoto });
    },
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

export function createAssistant({
  db,
  realtime,
  storage,
  moderation,
  config,
  log,
}: {
  db: Database;
  realtime: Realtime;
  storage: Storage;
  moderation: Pick<Moderation, 'withoutExternalLinks'>;
  config: Config['ai'];
  log: FastifyBaseLogger;
}): Assistant & { close(): Promise<void> } {
  const photoReader = createPhotoReader({ timeoutMs: PHOTO_READ_TIMEOUT_MS });
  const mathSolver = createMathSolver({ timeoutMs: MATH_TIMEOUT_MS });
  const offline = createOfflineProvider({ mathSolver, photoReader });
  const provider = config.modelServer
    ? createModelServerProvider({
        config: config.modelServer,
        fallback: offline,
        withoutExternalLinks: (text) => moderation.withoutExternalLinks(text),
        log,
      })
    : offline;
  log.info(`Guru AI: ${provider.name}`);

  /** The question's photo, read back from storage (its size is bounded by the chat's upload limit). */
  const imageOf = async (question: ChatMessage): Promise<GuruQuestion['image']> => {
    if (!question.attachment?.fileType.startsWith('image/')) return null;
    const file = await getMessageFile({ db, storage, userId: question.senderId, messageId: question.id });
    return { bytes: await readAll(file.stream), contentType: file.contentType };
  };

  /** The turns before the question (one page, newest first from the database, returned oldest first). */
  const historyOf = async (question: ChatMessage): Promise<GuruQuestion['history']> => {
    if (!config.modelServer) return []; // the offline engine answers each question on its own
    const page = await listAssistantMessages({ db, userId: question.senderId, limit: HISTORY_TURNS + 1 });
    return page.messages
      .filter((message) => message.id !== question.id && message.createdAt <= question.createdAt)
      .slice(-HISTORY_TURNS)
      .map((message) =>
        message.senderId === AI_USER_ID
          ? { role: 'assistant' as const, text: parseGuruReply(message.content).reply }
          : { role: 'student' as const, text: message.content || '(a photo)' },
      );
  };

  const answer = async (question: ChatMessage, turn: QuestionTurn) => {
    const studentId = question.senderId;
    realtime.toUsers([studentId], 'guru:typing', { isTyping: true });
    try {
      const asked: GuruQuestion = {
        text: question.content,
        image: await imageOf(question),
        history: await historyOf(question),
      };
      const answered = await provider.answer(asked, (text) => realtime.toUsers([studentId], 'guru:delta', { text }));
      const reply: GuruReply = { ...answered, input: question.content };
      await turn.release(); // before the reply is out: the student may ask again as soon as they read it
      await storeAssistantReply({ db, realtime, studentId, content: JSON.stringify(reply) });
    } finally {
      realtime.toUsers([studentId], 'guru:typing', { isTyping: false });
    }
  };
  const turns = createQuestionTurns({
    db,
    capacity: QUESTIONS_IN_FLIGHT,
    // The longest answer: the model server's whole answer (its timeout ends a stream that trickles on), then the
    // offline engine's as its fallback behind a full queue.
    holdMs:
      (config.modelServer?.timeoutMs ?? 0) +
      QUESTIONS_IN_FLIGHT * (PHOTO_READ_TIMEOUT_MS + 2 * MATH_TIMEOUT_MS) +
      TURN_HOLD_MARGIN_MS,
    log,
  });
  return {
    close: async () => {
      await Promise.all([photoReader.close(), mathSolver.close()]);
    },
    async takeTurn(studentId, clientId) {
      const turn = await turns.take(studentId, clientId);
      return {
        release: turn.release,
        answer(question) {
          answer(question, turn)
            .catch((error: unknown) => {
              log.error({ err: error }, 'Guru AI failed to answer');
              realtime.toUsers([question.senderId], 'guru:error');
            })
            .finally(turn.release);
        },
      };
    },
  };
}
