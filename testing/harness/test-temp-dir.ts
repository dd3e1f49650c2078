import { onTestFinished } from 'vitest';
import { makeTempDir } from '../cores/temp-dir.js';

/** A fresh folder that is removed when the current vitest test finishes. */
export async function tempDirForTest(prefix?: string): Promise<string> {
  const temp = await makeTempDir(prefix);
  onTestFinished(temp.cleanup);
  return temp.dir;
}
