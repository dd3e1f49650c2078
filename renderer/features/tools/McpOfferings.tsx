import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpPrompt, McpResourceContent, McpServerView } from '../../../shared/schemas/mcp.js';
import { promptArgSchema } from '../../../shared/mcp/mcp-prompts.js';
import { ArgumentForm } from '../../components/ArgumentForm.js';
import { ContentBlocks } from '../../components/ContentBlocks.js';
import { Pictures } from '../../components/Pictures.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { useGetMcpPrompt, useMcpOfferings, useReadMcpResource } from '../../queries/mcp.js';

/** A resource's contents drawn like a tool's content blocks: text as text, pictures drawn, other data named. */
function ResourceContents({ contents }: { contents: McpResourceContent[] }) {
  return (
    <ContentBlocks
      blocks={contents.map((content) =>
        content.blob !== undefined && content.mimeType?.startsWith('image/')
          ? { type: 'image' as const, data: content.blob, mimeType: content.mimeType }
          : { type: 'resource' as const, resource: content },
      )}
    />
  );
}

/**
 * With an MCP server's bundle picked and no tool: what else the server
 * offers. Resources are read on demand; prompts are filled in and
 * previewed. Attaching either to a message is the chat palette's job.
 */
export function McpOfferings({ server }: { server: McpServerView }) {
  const { t } = useTranslation();
  // Looking at an idle server's offerings is a use of it: asking starts it.
  const usable = server.state === 'connected' || server.state === 'idle';
  const { resources, prompts } = useMcpOfferings(usable ? server.name : null);
  if (!usable) {
    return (
      <div className="pane__message">
        <h2 className="definition__title">{server.name}</h2>
        <p className="muted">{server.state === 'disabled' ? t('offerings.off') : (server.error?.message ?? t('offerings.starting'))}</p>
      </div>
    );
  }
  const resourceList = resources.data?.resources ?? [];
  const templates = resources.data?.templates ?? [];
  const promptList = prompts.data?.prompts ?? [];
  return (
    <div className="offerings">
      <div className="definition__head">
        <h2 className="definition__title">{server.name}</h2>
        {server.serverInfo ? (
          <code className="muted">
            {server.serverInfo.name} {server.serverInfo.version}
          </code>
        ) : null}
      </div>
      <p className="muted">{t('offerings.intro')}</p>

      <OfferingSection
        kind={t('offerings.resources')}
        count={resources.data ? resourceList.length : null}
        failure={resources.isError ? errorMessage(resources.error, t('offerings.noResourceList')) : null}
        empty={t('offerings.noResources')}
        after={
          templates.length ? (
            <details className="offerings__templates">
              <summary>{t('offerings.templates', { count: templates.length })}</summary>
              <ul className="offerings__list">
                {templates.map((template) => (
                  <li key={template.uriTemplate}>
                    {template.title ?? template.name} <code className="muted">{template.uriTemplate}</code>
                  </li>
                ))}
              </ul>
            </details>
          ) : null
        }
      >
        {resourceList.map((resource) => (
          <ResourceItem key={resource.uri} server={server.name} resource={resource} />
        ))}
      </OfferingSection>

      <OfferingSection
        kind={t('offerings.prompts')}
        count={prompts.data ? promptList.length : null}
        failure={prompts.isError ? errorMessage(prompts.error, t('offerings.noPromptList')) : null}
        empty={t('offerings.noPrompts')}
      >
        {promptList.map((prompt) => (
          <PromptItem key={prompt.name} server={server.name} prompt={prompt} />
        ))}
      </OfferingSection>
    </div>
  );
}

/** One kind of offering: its count once listed, why it could not be listed, or that there is none; then `after` (templates). */
function OfferingSection(props: { kind: string; count: number | null; failure: string | null; empty: string; after?: ReactNode; children: ReactNode }) {
  const { kind, count, failure, empty, after, children } = props;
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="offerings__section">
      <h3 id={titleId} className="subhead">
        {count !== null ? t('offerings.count', { kind, count }) : kind}
      </h3>
      <ErrorLine message={failure} />
      {count === 0 ? <p className="muted">{empty}</p> : null}
      <ul className="offerings__list" aria-label={kind}>
        {children}
      </ul>
      {after}
    </section>
  );
}

function ResourceItem({ server, resource }: { server: string; resource: { uri: string; name: string; title?: string; description?: string; mimeType?: string } }) {
  const { t } = useTranslation();
  const read = useReadMcpResource();
  const [open, setOpen] = useState(false);
  return (
    <li>
      <details
        open={open}
        onToggle={(event) => {
          const opening = event.currentTarget.open;
          setOpen(opening);
          if (opening && !read.data && !read.isPending) read.mutate({ name: server, uri: resource.uri });
        }}
      >
        <summary>
          {resource.title ?? resource.name} <code className="muted">{resource.uri}</code>
          {resource.mimeType ? <span className="badge badge--quiet">{resource.mimeType}</span> : null}
        </summary>
        {resource.description ? <p className="muted" dir="auto">{resource.description}</p> : null}
        {read.isPending ? <p className="muted">{t('offerings.reading')}</p> : null}
        <ErrorLine message={read.isError ? errorMessage(read.error, t('mcpStatus.noAnswer')) : null} />
        {read.data ? (
          <div className="code-block">
            <ResourceContents contents={read.data.contents} />
          </div>
        ) : null}
      </details>
    </li>
  );
}

function PromptItem({ server, prompt }: { server: string; prompt: McpPrompt }) {
  const { t } = useTranslation();
  const get = useGetMcpPrompt();
  return (
    <li>
      <details>
        <summary>
          {prompt.title ?? prompt.name} <code className="muted">{prompt.name}</code>
        </summary>
        {prompt.description ? <p className="muted" dir="auto">{prompt.description}</p> : null}
        <ArgumentForm
          name={t('offerings.promptArguments', { name: prompt.name })}
          schema={promptArgSchema(prompt)}
          submitLabel={t('offerings.preview')}
          busyLabel={t('offerings.fillingIn')}
          busy={get.isPending}
          onSubmit={(args) => get.mutate({ name: server, prompt: prompt.name, args: args as Record<string, string> })}
        />
        <ErrorLine message={get.isError ? errorMessage(get.error, t('mcpStatus.noAnswer')) : null} />
        {get.data ? (
          <ol className="offerings__messages" aria-label={t('offerings.promptMessages', { name: prompt.name })}>
            {get.data.messages.map((message, index) => (
              <li key={index}>
                <span className="badge badge--quiet">{message.role}</span>
                {message.image ? <Pictures images={[message.image]} label={t('offerings.pictureOf', { number: index + 1 })} /> : <pre className="content-blocks__text">{message.text}</pre>}
              </li>
            ))}
          </ol>
        ) : null}
      </details>
    </li>
  );
}
