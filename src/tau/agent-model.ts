import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
} from '@ai-sdk/provider';
import type { LanguageModel as AiSdkLanguageModel } from 'ai';
import { ExchangeModel } from '../llm/exchange-model.ts';
import type { LanguageModel } from '../llm/language-model.ts';
import { createAiSdkModel, type ModelSettings } from '../llm/providers.ts';

function renderPrompt(prompt: LanguageModelV4Prompt): { system: string; transcript: string } {
  const system: string[] = [];
  const lines: string[] = [];
  for (const message of prompt) {
    if (message.role === 'system') {
      system.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text') lines.push(`### ${message.role}\n\n${part.text}`);
      else if (part.type === 'tool-call')
        lines.push(`### assistant (tool call)\n\n${JSON.stringify({ name: part.toolName, arguments: part.input })}`);
      else if (part.type === 'tool-result') {
        const output = part.output;
        const text = output.type === 'text' ? output.value : JSON.stringify('value' in output ? output.value : output);
        lines.push(`### tool result (${part.toolName})\n\n${text}`);
      }
    }
  }
  return { system: system.join('\n\n'), transcript: `# Conversation so far\n\n${lines.join('\n\n')}` };
}

/** Reads an answer: a JSON `{"name", "arguments"}` is a tool call, anything else a reply to the user. */
function readAnswer(text: string): { name: string; arguments: Record<string, unknown> } | undefined {
  try {
    const value = JSON.parse(text.trim()) as unknown;
    if (typeof value !== 'object' || value === null) return undefined;
    const { name, arguments: args } = value as { name?: unknown; arguments?: unknown };
    if (typeof name !== 'string' || typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
    return { name, arguments: args as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

let callCounter = 0;

/**
 * An AI SDK model answered by a text model of ours (the exchange folder): each step is one request holding the policy,
 * the tools' specs and the conversation so far; the answer is either the reply to the user, or a tool call written as
 * the JSON object `{"name": "<tool>", "arguments": {…}}` and nothing else.
 *
 * @example
 * ```ts
 * const model = new TextToolCallingModel(new ExchangeModel('exchange'));
 * ```
 */
export class TextToolCallingModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'agentguard';
  readonly modelId: string;
  readonly supportedUrls = {};
  private readonly model: LanguageModel;

  constructor(model: LanguageModel) {
    this.model = model;
    this.modelId = model.id;
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { system, transcript } = renderPrompt(options.prompt);
    const tools = (options.tools ?? []).flatMap((tool) =>
      tool.type === 'function'
        ? [`- ${tool.name}: ${tool.description ?? ''}\n  parameters: ${JSON.stringify(tool.inputSchema)}`]
        : [],
    );
    const response = await this.model.complete(
      {
        step: 'tau.agent',
        system: `${system}\n\n# Tools\n\n${tools.join('\n')}\n\n# How to answer\n\nAnswer with your reply to the user, or call one tool by answering only the JSON object {"name": "<tool>", "arguments": {...}}.`,
        messages: [{ role: 'user', content: transcript }],
      },
      options.abortSignal,
    );
    const call = readAnswer(response.text);
    const usage = {
      inputTokens: {
        total: response.usage.inputTokens,
        noCache: undefined,
        cacheRead: undefined,
        cacheWrite: undefined,
      },
      outputTokens: { total: response.usage.outputTokens, text: undefined, reasoning: undefined },
    };
    // The exchange folder reports no tokens: the counts are estimates, and say so.
    const providerMetadata = { agentguard: { estimatedUsage: response.usage.estimated === true } };
    if (call === undefined) {
      return {
        content: [{ type: 'text', text: response.text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        providerMetadata,
        warnings: [],
      };
    }
    return {
      content: [
        {
          type: 'tool-call',
          toolCallId: `call_${++callCounter}`,
          toolName: call.name,
          input: JSON.stringify(call.arguments),
        },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      providerMetadata,
      warnings: [],
    };
  }

  doStream(): never {
    throw new Error('`TextToolCallingModel` answers `generateText` only');
  }
}

/**
 * The agent's model from a name: a provider's own AI SDK model (`openai:…`, `anthropic:…`, `openai-compatible:…`), or
 * for `exchange:<dir>` a `TextToolCallingModel` over the exchange folder.
 *
 * @example
 * ```ts
 * const agent = createAgentModel('anthropic:claude-sonnet-4-5');
 * ```
 */
export function createAgentModel(name: string, settings: ModelSettings = {}, env = process.env): AiSdkLanguageModel {
  return (
    createAiSdkModel(name, settings, env) ??
    new TextToolCallingModel(new ExchangeModel(name.slice(name.indexOf(':') + 1)))
  );
}
