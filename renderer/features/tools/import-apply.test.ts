import { describe, expect, it } from 'vitest';
import { ToolbeltError } from '../../../shared/errors.js';
import { applyImport } from './import-apply.js';

const written = { bundleID: '0190a0a0-0000-7000-8000-000000000001', created: true, written: [], unchanged: 0 };
const base = { source: { text: '{"openapi":"3.0.3"}' }, bundleID: written.bundleID, operations: ['GET /notes'] };

/** The core's import as the window's client reaches it: each request kept; answered by `answer`. */
function core(answer: (params: Record<string, unknown>) => Promise<typeof written>) {
  const requests: Record<string, unknown>[] = [];
  const openapiApply = (params: Record<string, unknown>) => {
    requests.push(params);
    return answer(params);
  };
  return { requests, openapiApply: openapiApply as never };
}

describe('Import from the dialog', () => {
  it('names the preview and sends no text when the core still keeps it', async () => {
    const { requests, openapiApply } = core(() => Promise.resolve(written));
    expect(await applyImport(openapiApply, { ...base, previewId: 'preview-id-0123456789' })).toEqual(written);
    expect(requests).toEqual([{ bundleID: written.bundleID, operations: ['GET /notes'], previewId: 'preview-id-0123456789' }]);
  });

  it('sends the text again when the preview is gone, and only then', async () => {
    const { requests, openapiApply } = core((params) =>
      params.previewId ? Promise.reject(new ToolbeltError('import_preview_gone', 'gone')) : Promise.resolve(written),
    );
    expect(await applyImport(openapiApply, { ...base, previewId: 'preview-id-0123456789' })).toEqual(written);
    expect(requests.map((request) => [request.previewId ?? null, request.source ?? null])).toEqual([
      ['preview-id-0123456789', null],
      [null, base.source],
    ]);
  });

  it('does not send the text again for any other failure, which it passes on', async () => {
    const { requests, openapiApply } = core(() => Promise.reject(new ToolbeltError('storage_failed', 'The disk is full.')));
    await expect(applyImport(openapiApply, { ...base, previewId: 'preview-id-0123456789' })).rejects.toThrow('The disk is full.');
    expect(requests).toHaveLength(1);
  });
});
