import type { ParamsOf, ResultOf } from '../../shared/operation.js';
import { OPERATION_NAMES, type OperationName, type Operations } from '../../shared/operations/index.js';
import type { Transport } from './transport.js';

type NamespaceOf<N> = N extends `${infer Namespace}.${string}` ? Namespace : never;
type Namespaces = NamespaceOf<OperationName>;

type Method<K extends OperationName> = Partial<ParamsOf<Operations[K]>> extends ParamsOf<Operations[K]>
  ? (params?: ParamsOf<Operations[K]>) => Promise<ResultOf<Operations[K]>>
  : (params: ParamsOf<Operations[K]>) => Promise<ResultOf<Operations[K]>>;

/** `api.app.info()`: one typed method per operation, whatever the transport. */
export type ApiClient = {
  [N in Namespaces]: {
    [K in OperationName as K extends `${N}.${infer Verb}` ? Verb : never]: Method<K>;
  };
};

export function createApiClient(transport: Transport): ApiClient {
  const client: Record<string, Record<string, (params?: unknown) => Promise<unknown>>> = {};
  for (const name of OPERATION_NAMES) {
    const [namespace, verb] = name.split('.') as [string, string];
    client[namespace] ??= {};
    client[namespace][verb] = (params) => transport.invoke(name, params ?? {});
  }
  return client as unknown as ApiClient;
}
