/// <reference lib="webworker" />
// Makes the JSON body of mcpb.preview ({ file: { name, dataBase64 } }) for a bundle of tens of MB, off the page: the
// file's bytes written as base64 straight into bytes (no string of that size anywhere), the body a Blob of them,
// which the page hands to fetch as it is.
const scope = self as unknown as DedicatedWorkerGlobalScope;
const ALPHABET = new TextEncoder().encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const PAD = 61; // "="

function base64Bytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let at = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const triple = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[at++] = ALPHABET[triple >> 18]!;
    out[at++] = ALPHABET[(triple >> 12) & 63]!;
    out[at++] = ALPHABET[(triple >> 6) & 63]!;
    out[at++] = ALPHABET[triple & 63]!;
  }
  const left = bytes.length - i;
  if (left > 0) {
    const triple = (bytes[i]! << 16) | (left === 2 ? bytes[i + 1]! << 8 : 0);
    out[at] = ALPHABET[triple >> 18]!;
    out[at + 1] = ALPHABET[(triple >> 12) & 63]!;
    out[at + 2] = left === 2 ? ALPHABET[(triple >> 6) & 63]! : PAD;
    out[at + 3] = PAD;
  }
  return out;
}

scope.onmessage = async (event: MessageEvent<File>) => {
  const file = event.data;
  try {
    const base64 = base64Bytes(new Uint8Array(await file.arrayBuffer()));
    scope.postMessage({ ok: true, body: new Blob([`{"file":{"name":${JSON.stringify(file.name)},"dataBase64":"`, base64, '"}}'], { type: 'application/json' }) });
  } catch (error) {
    scope.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
};
