import { useTranslation } from 'react-i18next';
import type { ToolProgress } from '../../../shared/schemas/chat.js';


/** How far a run in the tester has got: "Step 2 of 3 · weather", with a bar when the whole is known. */
export function RunProgress({ progress }: { progress: ToolProgress }) {
  const { t } = useTranslation();
  const { total } = progress;
  const known = total !== undefined && total > 0;
  return (
    <span className="run-progress">
      <span dir="auto">
        {known ? t('tester.progressOf', { done: Math.min(progress.progress + 1, total), total }) : t('tester.progress', { done: progress.progress })}
        {progress.message ? ` · ${progress.message}` : ''}
      </span>
      {known ? <progress className="run-progress__bar" max={total} value={progress.progress} aria-hidden="true" /> : null}
    </span>
  );
}
