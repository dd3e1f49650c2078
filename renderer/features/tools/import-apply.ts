import { ToolbeltError } from '../../../shared/errors.js';
import type { ApiClient } from '../../api/client.js';
import type { ImportSource } from '../../../shared/schemas/imports.js';

type ApplyParams = Parameters<ApiClient['imports']['openapiApply']>[0];

/**
 * Import, naming the preview's reading of the description (`previewId`) so
 * its text is not sent again (GitHub's is 13 MB); with the text again when
 * the core no longer keeps that preview (imported already, half an hour
 * later, allowed hosts changed). Without a previewId, the text it is.
 */
export async function applyImport(openapiApply: ApiClient['imports']['openapiApply'], { previewId, ...params }: ApplyParams & { source: ImportSource }): ReturnType<ApiClient['imports']['openapiApply']> {
  if (previewId) {
    const { source: _source, ...byPreview } = params;
    try {
      return await openapiApply({ ...byPreview, previewId });
    } catch (error) {
      if (!(error instanceof ToolbeltError && error.code === 'import_preview_gone')) throw error;
    }
  }
  return openapiApply(params);
}
