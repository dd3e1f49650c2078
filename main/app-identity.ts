import packageJson from '../package.json' with { type: 'json' };

/** Name and version as shipped; the hosts pass these to the core. */
export const APP_IDENTITY = {
  name: packageJson.productName,
  version: packageJson.version,
} as const;
