/**
 * `read` with its answers remembered by the text they were read from, at
 * most `kept` of them (past that all are forgotten at once: a bound on
 * memory, not an LRU). For parses repeated on every call (templates,
 * JSONPath references), whose answers are never changed by their users.
 */
export function remembered<T>(read: (text: string) => T, kept: number): (text: string) => T {
  const answers = new Map<string, T>();
  return (text) => {
    let answer = answers.get(text);
    if (answer === undefined) {
      answer = read(text);
      if (answers.size >= kept) answers.clear();
      answers.set(text, answer);
    }
    return answer;
  };
}
