import type { RecipeToolRef } from '../../../shared/schemas/recipe-impl.js';
import type { ToolRecord } from '../../store/records.js';
import type { ToolStore } from '../../store/tool-store.js';

/** The tool a recipe's step names, from the store's index: the version it names, else the latest readable one. */
export function latestRecord(store: ToolStore, ref: RecipeToolRef): ToolRecord | undefined {
  const versions = store.versionsOf(ref.bundleID, ref.slug);
  return ref.version === undefined ? versions.at(-1) : versions.find((record) => record.tool.version === ref.version);
}

/** The same, looking on disk for a named version the index does not have yet (another process may have written it). */
export async function findStepTool(store: ToolStore, ref: RecipeToolRef): Promise<ToolRecord | undefined> {
  return ref.version === undefined ? latestRecord(store, ref) : store.findTool(ref.bundleID, ref.slug, ref.version);
}
