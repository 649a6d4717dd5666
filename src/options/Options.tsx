import { useState } from 'preact/hooks';
import { CATEGORIES, type Category } from '../detector';
import { t } from '../lib/i18n';
import { MAX_PATTERN_PROGRAM } from '../limits';
import { loadAllNotebooks } from '../state/store';
import { CopyButton, gatherDiagnostics } from '../ui/CopyButton';
import { categoryHint, categoryLabel } from '../ui/category-labels';
import { useSettings } from '../ui/hooks';
import { StorageErrors } from '../ui/StorageErrors';
import { sendUi } from '../ui/send';
import { whyWords } from '../ui/why-text';
import { About } from './About';
import { Alerts } from './Alerts';
import { NumberSetting, Section, Toggle } from './controls';
import { DataTools } from './DataTools';
import { Night } from './Night';
import { NotebookList } from './NotebookList';
import { Notifications } from './Notifications';
import { Tester } from './OutputTester';
import { PatternsEditor } from './PatternsEditor';
import { Problems } from './Problems';
import type { Save } from './save';

export function Options() {
  const settings = useSettings();
  const current = settings.value;

  const save: Save = async (patch) => {
    const reply = await sendUi({ type: 'ui-settings', patch });
    await settings.reload();
    return reply.ok ? null : whyWords(reply.why);
  };

  const [failureDraft, setFailureDraft] = useState<string | null>(null);
  const [markerDraft, setMarkerDraft] = useState<string | null>(null);

  if (!current) return <p class="muted">{t('loading')}</p>;
  const failureText = failureDraft ?? current.failurePatterns.join('\n');
  const markerText = markerDraft ?? current.markerPatterns.join('\n');

  return (
    <main class="options">
      <header>
        <h1>{t('optionsTitle')}</h1>
        <p class="muted">{t('optionsIntro')}</p>
        <About />
      </header>

      <StorageErrors />

      <Section id="notebooks" title="optionsNotebooks" intro="optionsNotebooksIntro">
        <NotebookList settings={current} />
      </Section>

      <Section id="limits" title="optionsLimits" intro="optionsLimitsIntro">
        <NumberSetting
          name="maxRestarts"
          label="settingMaxRestarts"
          hint="settingMaxRestartsHint"
          settings={current}
          save={save}
        />
        <NumberSetting
          name="backoffBaseSec"
          label="settingBackoffBase"
          hint="settingBackoffBaseHint"
          settings={current}
          save={save}
        />
        <NumberSetting
          name="backoffMaxSec"
          label="settingBackoffMax"
          hint="settingBackoffMaxHint"
          settings={current}
          save={save}
        />
        <NumberSetting
          name="healthyMinutes"
          label="settingHealthy"
          hint="settingHealthyHint"
          settings={current}
          save={save}
        />
        <NumberSetting
          name="markerDailyLimit"
          label="settingMarkerLimit"
          hint="settingMarkerLimitHint"
          settings={current}
          save={save}
        />
        <Toggle
          id="guard-never-ends"
          label={t('settingGuardNeverEnds')}
          hint={t('settingGuardNeverEndsHint')}
          checked={current.guardNeverEnds}
          onToggle={(checked) => save({ guardNeverEnds: checked })}
        />
        <Toggle
          id="ask-at-keyboard"
          label={t('settingAskAtKeyboard')}
          hint={t('settingAskAtKeyboardHint')}
          checked={current.askAtKeyboard}
          onToggle={(checked) => save({ askAtKeyboard: checked })}
        />
      </Section>

      <Section id="detection" title="optionsDetection" intro="optionsDetectionIntro">
        <fieldset class="checks">
          <legend>{t('optionsCategories')}</legend>
          {CATEGORIES.map((category) => (
            <Toggle
              key={category}
              id={`category-${category}`}
              label={categoryLabel(category)}
              hint={categoryHint(category)}
              checked={current.categories[category]}
              onToggle={(checked) =>
                save({ categories: { [category]: checked } as Partial<Record<Category, boolean>> })
              }
            />
          ))}
        </fieldset>
        <fieldset class="checks">
          <legend>{t('optionsColabEvents')}</legend>
          <Toggle
            id="reconnect"
            label={t('settingReconnect')}
            hint={t('settingReconnectHint')}
            checked={current.reconnectOnDisconnect}
            onToggle={(checked) => save({ reconnectOnDisconnect: checked })}
          />
        </fieldset>
      </Section>

      <Section id="patterns" title="optionsPatterns" intro="optionsPatternsIntro">
        <p class="hint">{t('optionsPatternsSyntax', MAX_PATTERN_PROGRAM)}</p>
        <PatternsEditor
          id="failure-patterns"
          label="patternsFailure"
          hint="patternsFailureHint"
          saveLabel="patternsSaveFailure"
          saved={current.failurePatterns}
          draft={failureText}
          setDraft={setFailureDraft}
          save={(patterns) => save({ failurePatterns: patterns })}
        />
        <PatternsEditor
          id="marker-patterns"
          label="patternsMarker"
          hint="patternsMarkerHint"
          saveLabel="patternsSaveMarker"
          saved={current.markerPatterns}
          draft={markerText}
          setDraft={setMarkerDraft}
          save={(patterns) => save({ markerPatterns: patterns })}
        />
      </Section>

      <Section id="tester" title="optionsTester" intro="optionsTesterIntro">
        <Tester settings={current} failureText={failureText} markerText={markerText} />
      </Section>

      <Section id="notebook-code" title="optionsNotebookCode">
        <Toggle
          id="status-api"
          label={t('settingStatusApi')}
          hint={t('settingStatusApiHint')}
          checked={current.statusApi}
          onToggle={(checked) => save({ statusApi: checked })}
        />
      </Section>

      <Section id="night" title="optionsNight" intro="optionsNightIntro">
        <Night settings={current} save={save} />
      </Section>

      <Section id="notifications" title="optionsNotifications" intro="optionsNotificationsIntro">
        <Notifications on={current.notifications} save={save} />
      </Section>

      <Section id="alerts" title="optionsAlerts" intro="optionsAlertsIntro">
        <Alerts />
      </Section>

      <Section id="data" title="optionsData" intro="optionsDataIntro">
        <DataTools
          afterChange={async () => {
            setFailureDraft(null);
            setMarkerDraft(null);
            await settings.reload();
          }}
        />
        <CopyButton
          id="copy-diagnostics"
          label={t('copyDiagnostics')}
          hint={t('copyDiagnosticsHint')}
          make={async () => gatherDiagnostics(await loadAllNotebooks())}
        />
      </Section>

      <Problems />
    </main>
  );
}
