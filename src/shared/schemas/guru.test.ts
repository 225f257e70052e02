import { describe, expect, it } from 'vitest';
import { parseGuruReply } from './guru.ts';

describe('parseGuruReply', () => {
  it('reads the stored shape, and shows anything else as text', () => {
    const stored = JSON.stringify({ reply: '$$x = 2$$', actionType: 'expert_help', input: 'solve 2x + 3 = 7' });
    expect(parseGuruReply(stored)).toEqual({
      reply: '$$x = 2$$',
      actionType: 'expert_help',
      input: 'solve 2x + 3 = 7',
    });
    expect(parseGuruReply('plain words')).toEqual({ reply: 'plain words', actionType: 'none' });
    expect(parseGuruReply('{"reply": 3}')).toEqual({ reply: '{"reply": 3}', actionType: 'none' });
  });
});
