// Guru AI's answers: told of each stored question by the chat, it answers offline (the math engine, or an honest
// decline with the two actions) and stores the reply through the chat, with a typing indicator while it works.
import type { FastifyBaseLogger } from 'fastify';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import type { GuruReply } from '#shared/schemas/guru.ts';
import type { Database } from '../../db/client.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { storeAssistantReply, type Assistant } from '../chat/service.ts';
import { solveMathQuestion } from './offline-math.ts';

export const CANNOT_SOLVE_OFFLINE =
  "I can't solve this one offline. A tutor can help: search for an expert, or create a new request and teachers will offer to help.";

/** The offline answer to a question: solved with its steps and the result in math, or declined with the actions. */
export function answerOffline(question: string): Omit<GuruReply, 'input'> {
  const result = solveMathQuestion(question);
  if (!result.solved) return { reply: CANNOT_SOLVE_OFFLINE, actionType: 'expert_help' };
  const steps = result.steps.map((step, index) => `${index + 1}. ${step}`).join('\n');
  return { reply: `$$${result.latex}$$\n\n**Steps**\n\n${steps}\n\n**Answer:** ${result.answer}`, actionType: 'none' };
}

export function createAssistant({
  db,
  realtime,
  log,
}: {
  db: Database;
  realtime: Realtime;
  log: FastifyBaseLogger;
}): Assistant {
  log.info('Guru AI: offline math engine (nerdamer-prime); AI_BASE_URL is not read yet');
  const answer = async (question: ChatMessage) => {
    const studentId = question.senderId;
    realtime.toUsers([studentId], 'guru:typing', { isTyping: true });
    try {
      const reply: GuruReply = { ...answerOffline(question.content), input: question.content };
      await storeAssistantReply({ db, realtime, studentId, content: JSON.stringify(reply) });
    } finally {
      realtime.toUsers([studentId], 'guru:typing', { isTyping: false });
    }
  };
  return {
    answer(question) {
      answer(question).catch((error: unknown) => log.error({ err: error }, 'Guru AI failed to answer'));
    },
  };
}
