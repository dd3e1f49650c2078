import { useTranslation } from 'react-i18next';
import type { ToolView } from '../../../../shared/schemas/tool.js';
import { asSentence, describeForPeople } from '../../../components/issue-text.js';

type Issue = { path: string; message: string };

interface EditorFooterProps {
  /** JSON pointers of fields whose text does not parse ('' is the whole tool.json). */
  blockers: string[];
  /** Every problem the store's rules find in the draft. */
  issues: Issue[];
  /** The problems of fields the person has reached (typed in, left, or tried to save). */
  shownIssues: Issue[];
  /** Placeholders read from secrets that are not set yet: warnings, the tool saves. */
  hints: Issue[];
  jsonTab: boolean;
  saving: boolean;
  base: ToolView | null;
  onSave: () => void;
  onCancel: () => void;
}

/** The editor's one verdict on the draft (what blocks saving, the problems, the warnings, or none) and Save. */
export function EditorFooter({ blockers, issues, shownIssues, hints, jsonTab, saving, base, onSave, onCancel }: EditorFooterProps) {
  const { t } = useTranslation();
  const rootProblems = issues.filter((issue) => issue.path === '/');
  const detail = jsonTab ? describeForPeople(shownIssues) : rootProblems.map((issue) => asSentence(issue.message)).join(' ');
  const problems = detail ? t('editor.problemsWith', { count: shownIssues.length, text: detail }) : t('editor.problems', { count: shownIssues.length });
  return (
    <div className="editor__footer">
      {blockers.length > 0 ? (
        <p className="field__error" role="status">
          {t('editor.notJson', { count: blockers.length, fields: blockers.map((pointer) => (pointer === '' ? 'tool.json' : pointer.slice(1))).join(', ') })}
        </p>
      ) : issues.length > 0 && shownIssues.length === 0 ? (
        <p className="muted" role="status">
          {t('editor.fillIn')}
        </p>
      ) : issues.length > 0 ? (
        <p className="field__error" role="status">
          {shownIssues.length < issues.length ? `${problems} ${t('editor.unfilledToo')}` : problems}
        </p>
      ) : hints.length > 0 ? (
        <p className="field__warning" role="status">
          {t('editor.warnings', { count: hints.length, text: describeForPeople(hints) })}
        </p>
      ) : (
        <p className="muted" role="status">
          {t('editor.noProblems')}
        </p>
      )}
      <div className="arg-form__actions">
        <button type="button" className="button button--primary" disabled={saving || blockers.length > 0} onClick={onSave}>
          {saving ? t('editor.saving') : base ? t('editor.saveVersion') : t('common.save')}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}
