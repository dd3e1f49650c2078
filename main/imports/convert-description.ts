import type { ImportSource } from '../../shared/schemas/imports.js';
import { createAjv } from '../common/validation.js';
import { createDocumentValidator, type DocumentValidator } from '../store/document-validation.js';
import { draftProblems } from '../store/tool-files.js';
import { loadApiDescription } from './openapi-source.js';
import { convertOpenApi, type ConvertedApi } from './openapi-tools.js';
import { convertPostman } from './postman-tools.js';

/** What converting a description needs: where it is, the hosts it may be fetched from, and a base URL the person gave. */
export interface ConvertRequest {
  source: ImportSource;
  allowedHosts: readonly string[];
  baseUrl?: string;
}

let validator: DocumentValidator | undefined;

/**
 * An API description (OpenAPI, Swagger, a Postman collection) read,
 * dereferenced and converted to a bundle's tools, each checked as writing it
 * will check it (the store's own rules): one that would be refused (a
 * pattern that is not valid in Unicode mode, say) is previewed as skipped,
 * with the reason, so the rest of the description still imports.
 * `timedElsewhere`: in the import process, which the core ends past its time (see loadApiDescription).
 */
export async function convertDescription(request: ConvertRequest, where: { timedElsewhere?: boolean } = {}): Promise<ConvertedApi> {
  const loaded = await loadApiDescription(request.source, request.allowedHosts, where);
  const baseUrl = request.baseUrl ? { baseUrl: request.baseUrl } : {};
  const converted = 'collection' in loaded ? convertPostman(loaded.collection, baseUrl) : convertOpenApi(loaded.doc, loaded.dialect, { ...(loaded.sourceUrl ? { sourceUrl: loaded.sourceUrl } : {}), ...baseUrl });
  // Its tools share the schemas of the components they use (json-schema-2020.ts), and nothing changes them.
  validator ??= createDocumentValidator(createAjv({ strict: false }), { schemasMetAgain: true });
  const operations = converted.operations.map((operation) => {
    const issues = operation.tool ? draftProblems(validator!, operation.tool, { slug: operation.slug, version: 'v1' }) : [];
    if (issues.length === 0) return operation;
    const { tool: _refused, ...rest } = operation;
    const [first] = issues;
    return { ...rest, skipped: `its definition would be refused (${first!.path || 'the tool'}: ${first!.message})${issues.length > 1 ? ` and ${issues.length - 1} more problems` : ''}` };
  });
  return { ...converted, operations };
}
