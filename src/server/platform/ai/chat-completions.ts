// A client of the OpenAI-compatible chat-completions API (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio…),
// streaming: POST {baseUrl}/chat/completions with stream: true, read as server-sent events.

type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export type ChatCompletionMessage = {
  role: 'system' | 'user' | 'assistant';
  content: string | ChatContentPart[];
};

export type ChatCompletionsConfig = {
  /** Up to the version segment, as the providers document it: https://api.openai.com/v1, http://localhost:11434/v1. */
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  /**
   * Longest time for the whole answer, from the request to its last piece: a stream that keeps trickling is ended too,
   * so whoever waits for the answer (a student's turn) knows when it ends.
   */
  timeoutMs: number;
};

/** Most tokens the model is asked to write (`max_tokens`), and most characters of its answer read, whatever it does. */
export type CompletionBounds = { maxTokens: number; maxChars: number };

/** What went wrong with the model server, in words fit for the log (never the key or the student's text). */
class ModelServerError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelServerError';
  }
}

/** The text pieces of a streamed completion, from the `data:` lines of its events. */
async function* completionPieces(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    const lines = buffered.split(/\r?\n/);
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      let event: { choices?: { delta?: { content?: unknown } }[]; error?: { message?: unknown } };
      try {
        event = JSON.parse(data) as typeof event;
      } catch {
        throw new ModelServerError('the model server sent an unreadable event');
      }
      if (event.error) throw new ModelServerError(`the model server reported: ${String(event.error.message)}`);
      const content = event.choices?.[0]?.delta?.content;
      if (typeof content === 'string' && content) yield content;
    }
  }
}

/**
 * Asks for a completion and hands each piece to `onDelta` as it arrives; resolves with the whole text, cut at
 * `bounds.maxChars`. Rejects with ModelServerError on an HTTP error, a timeout (the whole answer not ended within
 * `timeoutMs`), a broken stream or an empty answer.
 */
export async function streamChatCompletion({
  config,
  bounds,
  messages,
  onDelta,
}: {
  config: ChatCompletionsConfig;
  bounds: CompletionBounds;
  messages: ChatCompletionMessage[];
  onDelta: (text: string) => void;
}): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.timeoutMs);
  try {
    const response = await fetch(`${config.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: config.model, messages, stream: true, max_tokens: bounds.maxTokens }),
      signal: controller.signal,
    });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new ModelServerError(`the model server answered HTTP ${response.status}`, response.status);
    }
    let text = '';
    for await (const piece of completionPieces(response.body)) {
      const kept = piece.slice(0, bounds.maxChars - text.length);
      text += kept;
      if (kept) onDelta(kept);
      if (text.length >= bounds.maxChars) break; // a server that ignores max_tokens is not read further
    }
    if (!text.trim()) throw new ModelServerError('the model server sent an empty answer');
    return text;
  } catch (error) {
    if (error instanceof ModelServerError) throw error;
    if (controller.signal.aborted)
      throw new ModelServerError(`the model server's answer did not end within ${config.timeoutMs} ms`);
    throw new ModelServerError(`the model server could not be reached (${(error as Error).message})`);
  } finally {
    clearTimeout(timer);
    controller.abort(); // ends a stream left half-read
  }
}
