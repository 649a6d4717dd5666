import { useMemo, useState } from 'preact/hooks';
import { t } from '../lib/i18n';
import type { Settings } from '../state/schema';
import { checkPatterns } from './patterns';
import { testText } from './tester';

export function Tester(props: { settings: Settings; failureText: string; markerText: string }) {
  const [text, setText] = useState('');
  const failurePatterns = useMemo(() => checkPatterns(props.failureText).patterns, [props.failureText]);
  const markerPatterns = useMemo(() => checkPatterns(props.markerText).patterns, [props.markerText]);
  const result = useMemo(
    () => testText(text, { categories: props.settings.categories, failurePatterns, markerPatterns }),
    [text, props.settings.categories, failurePatterns, markerPatterns],
  );
  return (
    <div class="tester">
      <label for="tester-input">{t('testerLabel')}</label>
      <textarea
        id="tester-input"
        rows={6}
        spellcheck={false}
        value={text}
        placeholder={t('testerPlaceholder')}
        aria-describedby="tester-verdict"
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <div id="tester-verdict" role="status" class={`verdict ${result ? '' : 'muted'}`}>
        {result ? (
          <>
            <p class="verdict-headline">{result.headline}</p>
            <p>{result.detail}</p>
          </>
        ) : (
          <p>{t('testerEmpty')}</p>
        )}
      </div>
    </div>
  );
}
