/**
 * What the app sandbox's `/doc/<digest>` page says when the sandbox does not
 * hold that document (let go from its shelf, or never kept): it reaches the
 * window through the relay, as anything the app frame says, and the window
 * then loads a relay of its own that asks for the text
 * (renderer/features/apps/relay-frames.ts). Not an MCP Apps message: an app
 * that says it only makes its own relay start again.
 */
export const APP_DOCUMENT_MISSING = 'toolbelt/document-missing';
