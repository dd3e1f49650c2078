import type { Static, TObject, TSchema } from '@sinclair/typebox';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One entry of the operation table. The same definition drives the core
 * dispatcher (validation), the Electron IPC adapter, the browser host's HTTP
 * routes and the renderer's typed client.
 */
export interface OperationDefinition<P extends TObject = TObject, R extends TSchema = TSchema> {
  name: string;
  summary: string;
  params: P;
  result: R;
  http: {
    method: HttpMethod;
    /** Route under the host root, e.g. `/api/tools/bundles/:bundleID`. */
    path: string;
    /** Status for a successful call; 204 sends no body. */
    successStatus?: 200 | 201 | 202 | 204;
    /**
     * For methods with a body: the name of the param that *is* the JSON body.
     * Without it, every param not taken by the path travels in the body.
     */
    bodyParam?: string;
    /** A larger request body than the host's usual 10 MB (an API description to import). */
    maxBodyBytes?: number;
  };
}

export function defineOperation<P extends TObject, R extends TSchema>(
  definition: OperationDefinition<P, R>,
): OperationDefinition<P, R> {
  return definition;
}

export type ParamsOf<O> = O extends OperationDefinition<infer P, TSchema> ? Static<P> : never;
export type ResultOf<O> = O extends OperationDefinition<TObject, infer R> ? Static<R> : never;

export function methodHasBody(method: HttpMethod): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH';
}
