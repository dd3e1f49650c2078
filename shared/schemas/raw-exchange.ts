import { Type, type Static } from '@sinclair/typebox';

/** One request to a model server and its answer as it came, keys masked; each side cut at a limit (truncated says so). */
export const RawExchangeSchema = Type.Object(
  {
    startedAt: Type.String(),
    method: Type.String(),
    url: Type.String(),
    requestHeaders: Type.Record(Type.String(), Type.String()),
    requestBody: Type.String(),
    status: Type.Optional(Type.Integer()),
    responseHeaders: Type.Optional(Type.Record(Type.String(), Type.String())),
    /** The body as streamed: for a streamed answer, every `data:` line the server sent. */
    responseBody: Type.String(),
    truncated: Type.Boolean(),
    /** The request never got an answer: why. */
    error: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type RawExchange = Static<typeof RawExchangeSchema>;

/** A run's model requests, in order (a turn per request, retries included). */
export const RunExchangesSchema = Type.Object(
  { runId: Type.String(), startedAt: Type.String(), exchanges: Type.Array(RawExchangeSchema) },
  { additionalProperties: false },
);
export type RunExchanges = Static<typeof RunExchangesSchema>;
