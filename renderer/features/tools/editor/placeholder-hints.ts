import { templatesOf } from '../../../../shared/tools/http-templates.js';
import type { HttpImpl } from '../../../../shared/schemas/http-impl.js';
import { parseTemplate, placeholderTarget } from '../../../../shared/tools/templates.js';

/**
 * Warnings the store cannot give, because they depend on what is set up
 * here: a placeholder that is neither an argument nor a saved secret (it
 * would fail as missing_secret at run time).
 */
export function placeholderHints(impl: unknown, argSchema: unknown, secretNames: ReadonlySet<string>): { path: string; message: string }[] {
  if (!impl || typeof impl !== 'object' || typeof (impl as { urlTemplate?: unknown }).urlTemplate !== 'string') return [];
  const properties = (argSchema as { properties?: unknown } | null)?.properties;
  const argumentNames = new Set(properties && typeof properties === 'object' ? Object.keys(properties) : []);
  const hints: { path: string; message: string }[] = [];
  for (const { path, template } of templatesOf(impl as HttpImpl)) {
    const parsed = parseTemplate(template);
    if (!parsed.ok) continue;
    for (const part of parsed.parts) {
      if (part.kind !== 'placeholder' || placeholderTarget(part, argumentNames) !== 'secret' || secretNames.has(part.name)) continue;
      hints.push({
        path,
        message:
          part.source === 'auto'
            ? `${part.raw} is not an argument, so it is read from the secret ${part.name}, which is not set. Add the argument to argSchema, or set the secret in Settings.`
            : `the secret ${part.name} is not set yet; set it in Settings before running.`,
      });
    }
  }
  return hints;
}
