import type { BundleInput, BundleView } from '../../../shared/schemas/bundle.js';

/**
 * A bundle as `bundles.put` takes it back: everything the person set (connection settings, hooks), so a rename or a new
 * connection keeps the rest. Unchanged hooks stay switched on; the core compares what it has with what was switched on.
 */
export type KeptBundle = Pick<BundleView, 'bundleID' | 'slug' | 'displayName' | 'description' | 'isEnabled' | 'http' | 'hooks'>;

export function bundleInputOf(bundle: KeptBundle): BundleInput & { bundleID: string } {
  const { bundleID, slug, displayName, description, isEnabled, http, hooks } = bundle;
  return { bundleID, slug, displayName, description, isEnabled, ...(http ? { http } : {}), ...(hooks ? { hooks } : {}) };
}
