/**
 * What the window tells a relay loaded ahead of its app (`/app?standby`,
 * renderer/app-sandbox/relay.ts): which document of the sandbox's shelf to
 * frame, by its digest. Not an MCP Apps message: it never reaches the app.
 */
export const RELAY_LOAD_DOCUMENT = 'toolbelt/relay/load-document';

/** A digest as the sandbox names documents: SHA-256 in hex. */
export const isDocumentDigest = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
