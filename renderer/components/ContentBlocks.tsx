import { useTranslation } from 'react-i18next';
import { base64Size, blockAudience, isContentBlocks, type ContentBlock } from '../../shared/mcp/content-blocks.js';
import { JsonTree } from './JsonTree.js';

/** Images shown only in formats a browser renders without scripts; anything else is named, not drawn. */
const SAFE_IMAGE = /^image\/(png|jpeg|gif|webp|avif)$/;

/** A tool's content blocks as a person reads them: text, images drawn, audio playable, resources named with their URI. */
export function ContentBlocks({ blocks }: { blocks: ContentBlock[] }) {
  const { t } = useTranslation();
  return (
    <div className="content-blocks">
      {blocks.map((block, index) => {
        const key = `${index}-${block.type}`;
        // What the server meant for the model only is still shown, and said to be.
        if (!blockAudience(block).person) {
          return (
            <div key={key} className="content-blocks__for-model">
              <span className="badge badge--quiet">{t('content.forModel')}</span>
              <ContentBlocks blocks={[{ ...block, annotations: {} }]} />
            </div>
          );
        }
        switch (block.type) {
          case 'text':
            return (
              <pre key={key} className="content-blocks__text">
                {block.text}
              </pre>
            );
          case 'image':
            return SAFE_IMAGE.test(block.mimeType) ? (
              <figure key={key} className="content-blocks__image">
                <img src={`data:${block.mimeType};base64,${block.data}`} alt={t('content.imageAlt', { type: block.mimeType, size: base64Size(block.data) })} />
                <figcaption className="muted">
                  {block.mimeType} · {base64Size(block.data)}
                </figcaption>
              </figure>
            ) : (
              <p key={key} className="muted">
                {t('content.imageNotShown', { type: block.mimeType, size: base64Size(block.data) })}
              </p>
            );
          case 'audio':
            return <audio key={key} controls src={`data:${block.mimeType};base64,${block.data}`} aria-label={t('content.audio', { type: block.mimeType })} />;
          case 'resource_link':
            return (
              <p key={key} className="content-blocks__resource">
                <span className="badge badge--quiet">{t('content.resource')}</span> {block.title ?? block.name ?? block.uri} <code>{block.uri}</code>
                {block.description ? <span className="muted">
                    {' — '}
                    <bdi>{block.description}</bdi>
                  </span> : null}
              </p>
            );
          case 'resource':
            return (
              <div key={key} className="content-blocks__resource">
                <p>
                  <span className="badge badge--quiet">{t('content.resource')}</span> <code>{block.resource.uri}</code>
                  {block.resource.mimeType ? <span className="muted"> · {block.resource.mimeType}</span> : null}
                </p>
                {typeof block.resource.text === 'string' ? <pre className="content-blocks__text">{block.resource.text}</pre> : <JsonTree value={block.resource} />}
              </div>
            );
          default:
            return <JsonTree key={key} value={block} />;
        }
      })}
    </div>
  );
}

/** A tool's value: content blocks drawn as such, anything else as a tree. */
export function ToolValue({ value }: { value: unknown }) {
  return isContentBlocks(value) ? <ContentBlocks blocks={value} /> : <JsonTree value={value} />;
}

/** A call's result: its content blocks drawn when a server sent them beside structured content (the value a click away), else the value. */
export function ToolResult({ value, content }: { value: unknown; content?: unknown[] | undefined }) {
  const { t } = useTranslation();
  if (!isContentBlocks(content)) return <ToolValue value={value} />;
  return (
    <>
      <ContentBlocks blocks={content} />
      <details className="tool-result__structured">
        <summary>{t('content.structured')}</summary>
        <JsonTree value={value} />
      </details>
    </>
  );
}
