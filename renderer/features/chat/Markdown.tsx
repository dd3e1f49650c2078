import { useTranslation } from 'react-i18next';
import { memo, useEffect, useState, type ReactNode, type Ref } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { CopyButton } from '../../components/CopyButton.js';
import { createBlockSplitter } from './markdown-blocks.js';
import { useNearView } from './near-view.js';

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node) return textOf((node.props as { children?: ReactNode }).children);
  return '';
}

/** The fence's language ("```ts" gives the code element class "language-ts"), if it names one. */
function languageOf(children: ReactNode): string | null {
  const code = (Array.isArray(children) ? children[0] : children) as { props?: { className?: unknown } } | null;
  const className = typeof code?.props?.className === 'string' ? code.props.className : '';
  const match = /(?:^|\s)language-([\w+#.-]{1,30})/.exec(className);
  return match ? match[1]! : null;
}

// Model and tool output is untrusted: react-markdown renders no raw HTML,
// links open outside the app, and remote images are not loaded (they could
// report that the message was read); the image's address is shown instead.
const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
  img: ({ src, alt }) => <BlockedImage src={typeof src === 'string' ? src : ''} alt={alt} />,
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
};

function BlockedImage({ src, alt }: { src: string; alt: string | undefined }) {
  const { t } = useTranslation();
  return (
    <span className="md-image-blocked" title={t('chat.remoteImage')}>
      {alt ? t('chat.imagePlaceholderAlt', { alt }) : t('chat.imagePlaceholder')} <span dir="ltr">{src}</span>
    </span>
  );
}

function CodeBlock({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const language = languageOf(children);
  return (
    <div className="md-code">
      <div className="md-code__bar">
        <span className="md-code__language">{language ?? t('chat.plainText')}</span>
        <CopyButton text={textOf(children).replace(/\n$/, '')} label={language ? t('chat.copyLanguageCode', { language }) : t('chat.copyCode')} />
      </div>
      <pre>{children}</pre>
    </div>
  );
}

const REMARK_PLUGINS = [remarkGfm];
// react-markdown calls each plugin's attacher on every render, and rehype-highlight's registers all of its
// ~37 grammars anew each time (a second of main-thread work over a long streamed answer). Its transformer
// keeps no state per document, so one, made once, serves every block.
const highlightCode = rehypeHighlight({ detect: false });
const REHYPE_PLUGINS: Parameters<typeof ReactMarkdown>[0]['rehypePlugins'] = [() => highlightCode];

/**
 * How much of an answer's end is drawn in the same render as its text arrives: what a reader at the end
 * sees first. The rest is drawn as it comes near the view; more here would make each burst's render longer.
 */
const EAGER_TAIL_CHARS = 1500;
const PENDING_LINE_PX = 21;
const PENDING_LINE_CHARS = 90;
/** Blocks given a component of their own per frame, of those that arrived in a burst (see Markdown). */
const MOUNT_PER_FRAME = 64;
/** Blocks waiting for a component of their own share a stand-in, a few at a time. */
const BLOCKS_PER_STAND_IN = 8;

/** Where the blocks drawn at once begin: the last block, and those before it up to EAGER_TAIL_CHARS. */
function eagerFrom(blocks: readonly string[]): number {
  let index = blocks.length - 1;
  let chars = blocks[index]?.length ?? 0;
  while (index > 0 && chars + blocks[index - 1]!.length <= EAGER_TAIL_CHARS) {
    index--;
    chars += blocks[index]!.length;
  }
  return Math.max(index, 0);
}

/** A stand-in's height before it is laid out (the browser keeps the real one once it was). */
function estimatedHeight(text: string): number {
  let lines = 0;
  for (const line of text.split('\n')) lines += Math.max(1, Math.ceil(line.length / PENDING_LINE_CHARS));
  return lines * PENDING_LINE_PX;
}

/** Text waiting to be drawn, as it is: laid out only when shown (content-visibility), at an estimated height until then. */
function StandIn({ text, ref }: { text: string; ref?: Ref<HTMLDivElement> }) {
  return (
    <div ref={ref} className="markdown__pending" style={{ containIntrinsicHeight: `auto ${estimatedHeight(text)}px` }}>
      {text}
    </div>
  );
}

/**
 * One block, drawn as Markdown once it comes near the view; until then its
 * text stands in, so a long answer that streams past (or a long message
 * opened at its end) is not parsed and highlighted where nobody looks.
 */
const MarkdownBlock = memo(function MarkdownBlock({ text, eager }: { text: string; eager: boolean }) {
  const [ref, near] = useNearView<HTMLDivElement>(eager);
  return near ? <DrawnBlock text={text} /> : <StandIn ref={ref} text={text} />;
});

/** Parsed again only when its text changes (not when the block leaves the eager tail). */
export const DrawnBlock = memo(function DrawnBlock({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={REMARK_PLUGINS} rehypePlugins={REHYPE_PLUGINS} components={components} skipHtml>
      {text}
    </ReactMarkdown>
  );
});

/**
 * Markdown as a chat shows it: GitHub flavour, highlighted code with a copy
 * button, nothing executable. Rendered block by block, so a streaming answer
 * re-renders its last block per piece rather than the whole text (which
 * grows quadratically with its length); of many new blocks at once (a burst
 * of pieces, a long answer opened) only the last screenful is drawn at once,
 * the rest as it comes near the view, so no render holds the page for long.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const [split] = useState(createBlockSplitter);
  // Blocks that were in the eager tail once: drawn, they stay drawn. (Adding to it as a render goes is idempotent.)
  const [onceEager] = useState(() => new Set<number>());
  const [ownFrom, setOwnFrom] = useState(0);
  const blocks = split(text);
  const eagerStart = eagerFrom(blocks);
  for (let index = eagerStart; index < blocks.length; index++) onceEager.add(index);
  // Blocks before the eager tail get a component each, at most MOUNT_PER_FRAME more per frame: a burst can add
  // hundreds at once, and mounting them all in one render would hold the page. The rest wait in stand-ins of a
  // few blocks each, not one: the browser lays out only those it shows (content-visibility).
  const ownUpTo = Math.min(eagerStart, ownFrom + MOUNT_PER_FRAME);
  useEffect(() => {
    if (ownUpTo >= eagerStart) return;
    const frame = requestAnimationFrame(() => setOwnFrom(ownUpTo));
    return () => cancelAnimationFrame(frame);
  }, [ownUpTo, eagerStart]);
  const parts: ReactNode[] = [];
  let waiting: string[] = [];
  const standIn = () => {
    if (waiting.length === 0) return;
    parts.push(<StandIn key={`waiting-${parts.length}`} text={waiting.join('')} />);
    waiting = [];
  };
  blocks.forEach((block, index) => {
    // The eager tail (in onceEager by now) and blocks drawn before are drawn at once; the first ones wait for the view.
    const drawnAtOnce = onceEager.has(index);
    if (drawnAtOnce || index < ownUpTo) {
      standIn();
      parts.push(<MarkdownBlock key={index} text={block} eager={drawnAtOnce} />);
      return;
    }
    waiting.push(block);
    if (waiting.length === BLOCKS_PER_STAND_IN) standIn();
  });
  standIn();
  return <div className="markdown">{parts}</div>;
});
