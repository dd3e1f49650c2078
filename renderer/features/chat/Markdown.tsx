import { memo, useDeferredValue, useState, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { CopyButton } from '../../components/CopyButton.js';
import { createBlockSplitter } from './markdown-blocks.js';

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
  img: ({ src, alt }) => (
    <span className="md-image-blocked" title="Remote images are not loaded">
      [image{alt ? `: ${alt}` : ''}] {typeof src === 'string' ? src : ''}
    </span>
  ),
  pre: ({ children }) => {
    const language = languageOf(children);
    return (
      <div className="md-code">
        <div className="md-code__bar">
          <span className="md-code__language">{language ?? 'text'}</span>
          <CopyButton text={textOf(children).replace(/\n$/, '')} label={language ? `Copy ${language} code` : 'Copy code'} />
        </div>
        <pre>{children}</pre>
      </div>
    );
  },
};

const REMARK_PLUGINS = [remarkGfm];
const REHYPE_PLUGINS: Parameters<typeof ReactMarkdown>[0]['rehypePlugins'] = [[rehypeHighlight, { detect: false, ignoreMissing: true }]];

const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
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
 * grows quadratically with its length).
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const [split] = useState(createBlockSplitter);
  // Rendered as a transition: many new blocks at once (a burst of pieces, a long answer opened) are
  // rendered in slices between which the page stays responsive, instead of one long task.
  const shown = useDeferredValue(text);
  const blocks = split(shown);
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} text={block} />
      ))}
    </div>
  );
});
