import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { LocalFunction } from '../../../main/tools/local/registry.js';

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
  let real: string;
  try {
    real = await realpath(path.resolve(requested));
  } catch {
    throw new Error(`There is no file at ${requested}.`);
  }
  const roots = await Promise.all(context.readableFolders.map((folder) => realpath(folder).catch(() => null)));
  const inside = roots.some((root) => root && (real === root || real.startsWith(root + path.sep)));
  if (!inside) throw new Error(`${requested} is outside the folders allowed for reading (${context.readableFolders.join(', ')}).`);
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
