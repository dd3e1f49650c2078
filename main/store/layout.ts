import path from 'node:path';
import { isUuidV7 } from '../../shared/schemas/ids.js';

/**
 * Where everything lives in the data folder. File names come from IDs only
 * (never slugs or versions: case-insensitive file systems, traversal), and
 * every ID is checked before it becomes part of a path.
 */
export interface StoreLayout {
  root: string;
  bundlesDir: string;
  usageDir: string;
  locksDir: string;
  builtinOverridesFile: string;
  bundleDir(bundleID: string): string;
  bundleFile(bundleID: string): string;
  toolsDir(bundleID: string): string;
  toolFile(bundleID: string, toolID: string): string;
  usageFile(toolID: string): string;
  lockTarget(name: string): string;
}

const SEP = path.sep;

function checked(id: string): string {
  if (!isUuidV7(id)) throw new Error(`not a UUIDv7: ${JSON.stringify(id)}`);
  return id;
}

export function createLayout(dataDir: string): StoreLayout {
  const root = path.resolve(dataDir);
  const bundlesDir = path.join(root, 'bundles');
  const usageDir = path.join(root, 'usage');
  const locksDir = path.join(root, 'locks');
  return {
    root,
    bundlesDir,
    usageDir,
    locksDir,
    builtinOverridesFile: path.join(root, 'builtins.json'),
    // Joined by hand: the folders are resolved already and an ID is a checked UUID (no separator, no dot), so this is
    // path.join's answer without its normalising, which took ~10% of loading 10,000 tools.
    bundleDir: (bundleID) => `${bundlesDir}${SEP}${checked(bundleID)}`,
    bundleFile: (bundleID) => `${bundlesDir}${SEP}${checked(bundleID)}${SEP}bundle.json`,
    toolsDir: (bundleID) => `${bundlesDir}${SEP}${checked(bundleID)}${SEP}tools`,
    toolFile: (bundleID, toolID) => `${bundlesDir}${SEP}${checked(bundleID)}${SEP}tools${SEP}${checked(toolID)}.json`,
    usageFile: (toolID) => `${usageDir}${SEP}${checked(toolID)}.json`,
    lockTarget: (name) => path.join(locksDir, name),
  };
}

/** `<toolID>.json` → toolID, or null for anything else in a tools folder. */
export function toolIDFromFileName(fileName: string): string | null {
  if (!fileName.endsWith('.json')) return null;
  const id = fileName.slice(0, -'.json'.length);
  return isUuidV7(id) ? id : null;
}
