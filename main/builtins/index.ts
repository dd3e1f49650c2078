// The bundles shipped with the app, read-only. Every JSON file under
// builtins/ must be listed here (a test checks), and is validated at start
// with the same rules as a user's files.
import askUser from './core/tools/ask-user.json' with { type: 'json' };
import calculator from './core/tools/calculator.json' with { type: 'json' };
import coreBundle from './core/bundle.json' with { type: 'json' };
import currentTime from './core/tools/current-time.json' with { type: 'json' };
import readTextFile from './core/tools/read-text-file.json' with { type: 'json' };
import toolSearch from './core/tools/tool-search.json' with { type: 'json' };
import forecast from './open-meteo/tools/forecast.json' with { type: 'json' };
import geocode from './open-meteo/tools/geocode.json' with { type: 'json' };
import meteoBundle from './open-meteo/bundle.json' with { type: 'json' };

/** What the store reads a shipped bundle as (the shape main/store/sources.ts takes). */
interface ShippedBundle {
  folder: string;
  bundle: unknown;
  tools: { file: string; document: unknown }[];
}

export const SHIPPED_BUNDLES: readonly ShippedBundle[] = [
  {
    folder: 'core',
    bundle: coreBundle,
    tools: [
      { file: 'current-time.json', document: currentTime },
      { file: 'calculator.json', document: calculator },
      { file: 'ask-user.json', document: askUser },
      { file: 'read-text-file.json', document: readTextFile },
      { file: 'tool-search.json', document: toolSearch },
    ],
  },
  {
    folder: 'open-meteo',
    bundle: meteoBundle,
    tools: [
      { file: 'geocode.json', document: geocode },
      { file: 'forecast.json', document: forecast },
    ],
  },
];

/** The built-in that finds a chat's tools by search, offered as `tool_search`. */
export const TOOL_SEARCH_TOOL = { bundleID: toolSearch.bundleID, slug: toolSearch.slug, version: toolSearch.version };

/** Hosts of the shipped HTTP tools, allowed by default. */
export const SHIPPED_ALLOWED_HOSTS: readonly string[] = ['geocoding-api.open-meteo.com', 'api.open-meteo.com'];
