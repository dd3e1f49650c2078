import { createHash } from 'node:crypto';
import type { BundleFile } from '../../shared/schemas/bundle.js';
import type { BundleHooks } from '../../shared/schemas/hooks.js';
import { stableJson } from '../common/stable-json.js';

/** The digest the person switches on: what they saw, byte for byte in meaning. */
export function hooksDigest(hooks: BundleHooks): string {
  return createHash('sha256').update(stableJson(hooks)).digest('hex');
}

/** Whether a bundle has hooks at all (an empty block is none). */
export function hasHooks(hooks: BundleHooks | undefined): hooks is BundleHooks {
  return hooks !== undefined && Object.values(hooks).some((entries) => entries && entries.length > 0);
}

const SWITCHED_ON = new WeakMap<BundleFile, boolean>();

/** The bundle's hooks when they run: present, and the very ones the person switched on. Remembered per bundle file read. */
export function hooksSwitchedOn(bundle: BundleFile): BundleHooks | undefined {
  if (!hasHooks(bundle.hooks) || bundle.hooksSwitchedOn === undefined) return undefined;
  let on = SWITCHED_ON.get(bundle);
  if (on === undefined) {
    on = hooksDigest(bundle.hooks) === bundle.hooksSwitchedOn;
    SWITCHED_ON.set(bundle, on);
  }
  return on ? bundle.hooks : undefined;
}
