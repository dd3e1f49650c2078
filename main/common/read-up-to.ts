/**
 * A response body as UTF-8 text, read up to `limit` bytes and no further:
 * past it the stream is cancelled and `truncated` says so (the caller
 * decides whether the first part will do or the whole is refused).
 */
export async function readUpTo(response: Response, limit: number): Promise<{ text: string; size: number; truncated: boolean }> {
  if (!response.body) return { text: '', size: 0, truncated: false };
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value.subarray(0, Math.max(0, limit - size)));
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return { text: Buffer.concat(chunks).toString('utf8'), size, truncated: true };
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), size, truncated: false };
}
