import { t } from '../lib/i18n';
import { useProblems } from '../ui/hooks';
import { formatTime } from '../ui/text';

export function Problems() {
  const problems = useProblems();
  const now = Date.now();
  if (problems.length === 0) return null;
  return (
    <section class="card" aria-labelledby="problems-heading">
      <h2 id="problems-heading">{t('problemsTitle')}</h2>
      <p class="muted">{t('problemsIntro')}</p>
      <ul class="problem-list">
        {[...problems].reverse().map((problem) => (
          <li key={`${problem.at}-${problem.key}`}>
            <time dateTime={new Date(problem.at).toISOString()}>{formatTime(problem.at, now)}</time>{' '}
            <code>{problem.key}</code>: {problem.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
