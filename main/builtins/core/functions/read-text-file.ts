import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { LocalFunction } from '../../../tools/local/registry.js';

/**
 * core.readTextFile: reads a UTF-8 file inside a folder the person allowed.
 * Paths are resolved through symlinks first, so a link cannot lead outside.
 */
export const readTextFile: LocalFunction = async (args, context) => {
  if (context.readableFolders.length === 0) {
    throw new Error('No folder is allowed for reading yet. Add one in Settings → Readable folders.');
  }
  const requested = String(args.path);
  const maxBytes = typeof args.maxBytes === 'number' ? args.maxBytes : 65_536;
  const outside = new Error(`${requested} is outside the folders allowed for reading (${context.readableFolders.join(', ')}).`);
  // Each folder as written and as it really is (it may itself be reached through a link).
  const realRoots = await Promise.all(context.readableFolders.map((folder) => realpath(folder).catch(() => null)));
  const roots = [...context.readableFolders.map((folder) => path.resolve(folder)), ...realRoots.filter((root) => root !== null)];
  const isInside = (candidate: string) => roots.some((root) => candidate === root || candidate.startsWith(root + path.sep));
  // The folder first, then existence: asking about a path outside must not tell whether it exists.
  const requestedPath = path.resolve(requested);
  if (!isInside(requestedPath)) throw outside;
  let real: string;
  try {
    real = await realpath(requestedPath);
  } catch {
    throw new Error(`There is no file at ${requested}.`);
  }
  // A link inside an allowed folder must not lead out of it.
  if (!isInside(real)) throw outside;
  const info = await stat(real);
  if (!info.isFile()) throw new Error(`${requested} is not a file.`);
  const handle = await open(real, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes, info.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) throw new Error(`${requested} is not a text file.`);
    return { path: real, text: new TextDecoder('utf-8').decode(bytes), bytes: bytesRead, truncated: info.size > bytesRead };
  } finally {
    await handle.close();
  }
};
