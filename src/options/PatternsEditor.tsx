import { useMemo, useState } from 'preact/hooks';
import { validatePattern } from '../detector/patterns';
import { type MessageKey, t, tn } from '../lib/i18n';
import { checkPatterns, type LineProblem } from './patterns';

export function PatternsEditor(props: {
  id: string;
  label: MessageKey;
  hint: MessageKey;
  saveLabel: MessageKey;
  saved: string[];
  draft: string;
  setDraft: (text: string | null) => void;
  save: (patterns: string[]) => Promise<string | null>;
}) {
  const check = useMemo(() => checkPatterns(props.draft), [props.draft]);
  // Saved by an earlier version or elsewhere, refused by this one: kept as the user wrote them, but not run.
  const refusedSaved = useMemo(() => props.saved.filter((p) => !validatePattern(p).ok).length, [props.saved]);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const dirty = props.draft !== props.saved.join('\n');

  async function save() {
    if (check.problems.length > 0) {
      setResult({ ok: false, message: t('patternsNotSaved') });
      return;
    }
    const refusal = await props.save(check.patterns);
    if (refusal === null) {
      props.setDraft(null);
      setResult({ ok: true, message: tn('patternsSaved', check.patterns.length, check.patterns.length) });
    } else {
      setResult({ ok: false, message: refusal });
    }
  }

  return (
    <div class="patterns">
      <label for={props.id}>{t(props.label)}</label>
      <p id={`${props.id}-hint`} class="hint">
        {t(props.hint)}
      </p>
      {refusedSaved > 0 && (
        <p id={`${props.id}-refused`} class="error">
          {t('patternsSavedRefused', refusedSaved)}
        </p>
      )}
      <textarea
        id={props.id}
        rows={4}
        spellcheck={false}
        value={props.draft}
        aria-invalid={check.problems.length > 0}
        aria-describedby={`${props.id}-hint ${refusedSaved > 0 ? `${props.id}-refused ` : ''}${props.id}-problems`}
        onInput={(event) => {
          props.setDraft(event.currentTarget.value);
          setResult(null);
        }}
      />
      <ul id={`${props.id}-problems`} class="problems error">
        {check.problems.map((problem) => (
          <li key={`${problem.line}-${problem.message}`}>{lineMessage(problem)}</li>
        ))}
      </ul>
      <div class="row">
        <button type="button" class="primary" onClick={() => void save()}>
          {t(props.saveLabel)}
        </button>
        {dirty && <span class="hint">{t('patternsUnsaved')}</span>}
        <span role={result && !result.ok ? 'alert' : 'status'} class={result ? (result.ok ? 'success' : 'error') : ''}>
          {result?.message ?? ''}
        </span>
      </div>
    </div>
  );
}

function lineMessage(problem: LineProblem): string {
  return problem.line === 0 ? problem.message : t('patternsLine', problem.line, problem.message);
}
