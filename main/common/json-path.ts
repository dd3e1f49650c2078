import parseJsonPath from 'jsonpath-rfc9535/parser';

/** `$…` must parse as RFC 9535 JSONPath; the message says where it does not. */
export function jsonPathProblem(expression: string): string | null {
  try {
    parseJsonPath(expression);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
