import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running fake server: its base URL (`http://127.0.0.1:<port>/v1`) and how to stop it. */
export interface FakeOpenAIServer {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts a local server on 127.0.0.1 that speaks the OpenAI chat completions wire format, answering each request
 * with the text `answer` returns for its messages. A test double for `openai:` and `openai-compatible:` models.
 *
 * @example
 * ```ts
 * const server = await startFakeOpenAIServer(() => '{"policies": []}');
 * const model = createLanguageModel('openai-compatible:test', { baseUrl: server.baseUrl, maxRetries: 0 });
 * await server.close();
 * ```
 */
export async function startFakeOpenAIServer(
  answer: (messages: { role: string; content: string }[]) => string,
): Promise<FakeOpenAIServer> {
  const server = createServer(async (request, response) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    const messages = (JSON.parse(text) as { messages?: { role: string; content: string }[] }).messages ?? [];
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created: 0,
        model: 'fake',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer(messages) } }],
        usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
