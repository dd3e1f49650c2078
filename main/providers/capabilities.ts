import type { ModelCapabilities, ProviderKind } from '../../shared/schemas/provider.js';
import type { LearnedAbout, ModelProvider } from './model.js';
import type { ProviderSettings } from './provider-store.js';

/** What each kind of provider can do whatever the model; learned answers are laid over it. */
const BY_KIND: Record<ProviderKind, Pick<ModelCapabilities, 'parallelToolCalls' | 'images' | 'structuredAnswer'>> = {
  openai: { parallelToolCalls: 'switchable', images: 'unknown', structuredAnswer: 'response_format' },
  azure: { parallelToolCalls: 'switchable', images: 'unknown', structuredAnswer: 'response_format' },
  anthropic: { parallelToolCalls: 'switchable', images: 'yes', structuredAnswer: 'answer_tool' },
  // Gemini's API has no switch for one call at a time: the model decides.
  gemini: { parallelToolCalls: 'always', images: 'yes', structuredAnswer: 'answer_tool' },
  scripted: { parallelToolCalls: 'switchable', images: 'no', structuredAnswer: 'checked_only' },
};

/** What a model takes of the person's files: pictures when it sees them, PDFs as documents when its API takes them. */
export interface FileReader {
  pictures: boolean;
  pdfs: boolean;
}

/**
 * What of the person's files a provider's models take: pictures unless the kind sees none; PDFs as documents where
 * the API reads them (Anthropic, Gemini, Azure and OpenAI's own; an OpenAI-compatible server, Ollama or LM Studio,
 * refuses a file part, so it gets the PDF's text). A model whose server refused a picture (an OpenAI-compatible one,
 * whose kind cannot say) gets none after that.
 */
export function fileReaderOf(settings: { kind: ProviderKind; baseURL?: string | undefined }, learned: LearnedAbout = {}): FileReader {
  const openAiItself = settings.kind !== 'openai' || settings.baseURL === undefined || new URL(settings.baseURL).hostname === 'api.openai.com';
  return { pictures: BY_KIND[settings.kind].images !== 'no' && learned.picturesRefusal === undefined, pdfs: settings.kind !== 'scripted' && openAiItself };
}

/**
 * Input sizes of well-known models, for servers whose model list does not
 * say (OpenAI's, Anthropic's): the first pattern that matches the model's
 * name wins. Local servers' models are left unknown: their size is a setting
 * of the server.
 */
const KNOWN_CONTEXT: [RegExp, number][] = [
  [/^(?:.*\/)?gpt-4\.1/, 1_047_576],
  [/^(?:.*\/)?gpt-5/, 400_000],
  [/^(?:.*\/)?gpt-4o/, 128_000],
  [/^(?:.*\/)?gpt-4-turbo/, 128_000],
  [/^(?:.*\/)?o[134](?:-|$)/, 200_000],
  [/^(?:.*\/)?gpt-3\.5-turbo/, 16_385],
  [/^(?:.*\/)?claude-/, 200_000],
  [/^(?:.*\/)?gemini-/, 1_048_576],
];


export function capabilitiesOf(kind: ProviderKind, model: string, learned: LearnedAbout): ModelCapabilities {
  const known = KNOWN_CONTEXT.find(([pattern]) => pattern.test(model))?.[1];
  const context =
    learned.listedContextTokens !== undefined
      ? { contextTokens: learned.listedContextTokens, contextSource: 'server' as const }
      : known !== undefined && kind !== 'scripted'
        ? { contextTokens: known, contextSource: 'known' as const }
        : {};
  return {
    tools: learned.toolsRefusal ? 'refused' : 'yes',
    ...(learned.toolsRefusal ? { toolsRefusal: learned.toolsRefusal } : {}),
    ...BY_KIND[kind],
    // Its server refused a picture: the window says before sending that pictures are left out.
    ...(learned.picturesRefusal ? { images: 'no' as const } : {}),
    streamingWithTools: learned.streamsToolsWhole ? 'whole' : 'yes',
    ...context,
  };
}

export type CapabilityReader = (settings: ProviderSettings, model: string, signal: AbortSignal) => Promise<ModelCapabilities>;

/**
 * Capabilities of a provider's model. The input size comes with the
 * server's model list: read once per provider client if it never was (a
 * list that fails leaves the size unknown).
 */
export function capabilityReader(connect: (settings: ProviderSettings) => ModelProvider): CapabilityReader {
  const listed = new WeakSet<ModelProvider>();
  return async (settings, model, signal) => {
    const provider = connect(settings);
    if (!listed.has(provider)) {
      listed.add(provider);
      await provider.listModels(signal).catch(() => null);
    }
    return capabilitiesOf(settings.kind, model, provider.learned?.(model) ?? {});
  };
}
