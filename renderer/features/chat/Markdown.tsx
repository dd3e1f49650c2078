import { memo, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { CopyButton } from '../../components/CopyButton.js';

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

/** Markdown as a chat shows it: GitHub flavour, highlighted code with a copy button, nothing executable. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeHighlight, { detect: false, ignoreMissing: true }]]} components={components} skipHtml>
        {text}
      </ReactMarkdown>
    </div>
  );
});
