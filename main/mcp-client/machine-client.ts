import { type OAuthClientProvider, ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/client';

/**
 * A server Toolbelt reaches as itself (OAuth client credentials): no person
 * signs in, the client proves who it is with its secret (client_secret_basic)
 * or a private key (private_key_jwt). Tokens live as long as the connection;
 * the SDK asks for a new one when the server refuses the old.
 */
export function machineClient(server: string, oauth: { clientId: string; signingAlgorithm?: string }, values: { clientSecret: string | undefined; privateKey: string | undefined }): OAuthClientProvider {
  const clientName = 'Toolbelt';
  if (values.privateKey) return new PrivateKeyJwtProvider({ clientId: oauth.clientId, privateKey: values.privateKey, algorithm: oauth.signingAlgorithm ?? 'ES256', clientName });
  if (values.clientSecret) return new ClientCredentialsProvider({ clientId: oauth.clientId, clientSecret: values.clientSecret, clientName });
  throw new ClientConfigIncomplete(
    `The MCP server ${server} signs in with client credentials but its config has neither "clientSecret" nor "privateKey": add the one its sign-in server gave, as \${secret.NAME}.`,
  );
}

/** A client-credentials config that cannot sign in as it is: it names no proof. */
export class ClientConfigIncomplete extends Error {}
