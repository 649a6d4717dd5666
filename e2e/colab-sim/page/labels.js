// UI label sets (scenario `ui.labels`). Commands never change between sets; labels do (§1.1 label history).
// 'en-2026' is verbatim from the 2026 capture and Colab's frontend JS (§0, §2, §5). 'en-legacy' uses the pre-2024
// labels quoted in §1.1. 'de' and 'ja' are plausible translations (NOT captured from Colab): they exist so that a
// test can prove the extension does not depend on English text where a `command` attribute is available.

const EN_2026 = {
  menus: {
    file: 'File',
    edit: 'Edit',
    view: 'View',
    insert: 'Insert',
    runtime: 'Runtime',
    tools: 'Tools',
    help: 'Help',
  },
  items: {
    // Runtime menu (§1.1, 2026 capture)
    runall: 'Run all',
    runbefore: 'Run before',
    runfocused: 'Run the focused cell',
    runselected: 'Run selection',
    runafter: 'Run cell and below',
    interrupt: 'Interrupt execution',
    restart: 'Restart session',
    'restart-and-run-all': 'Restart session and run all',
    'powerwash-current-vm': 'Disconnect and delete runtime',
    'change-runtime-type': 'Change runtime type',
    'manage-sessions': 'Manage sessions',
    'open-resource-viewer': 'View resources',
    'view-runtime-logs': 'View runtime logs',
    'deploy-cloud-run': 'Deploy to Google Cloud Run',
    // Other menus: `open`, `clear-outputs`, `show-command-palette`, `preferences`, `shortcuts`, `open-differ` are
    // captured;
    // the rest are plausible fillers so that a wrong menu exists.
    'new-notebook': 'New notebook in Drive',
    open: 'Open notebook',
    save: 'Save',
    print: 'Print',
    undo: 'Undo',
    'clear-outputs': 'Clear all outputs',
    'notebook-settings': 'Notebook settings',
    'table-of-contents': 'Table of contents',
    'notebook-info': 'Notebook info',
    'insert-cell-below': 'Code cell',
    'insert-text-cell-below': 'Text cell',
    'show-command-palette': 'Command palette',
    preferences: 'Settings',
    shortcuts: 'Keyboard shortcuts',
    'open-differ': 'Diff notebooks',
    faq: 'Frequently asked questions',
    'release-notes': 'View release notes',
  },
  toolbar: {
    runAll: 'Run all',
    runAllTooltip: 'Run all cells in notebook',
    moreActions: 'More actions',
    restart: 'Restart session',
    'restart-and-run-all': 'Restart session and run all',
    runafter: 'Run focused cell and all cells below',
    interrupt: 'Interrupt execution',
    'clear-outputs': 'Clear all outputs',
  },
  connect: {
    connect: 'Connect',
    reconnect: 'Reconnect',
    connecting: 'Connecting',
    // colabtools#5622: the button stuck on this while the code keeps running.
    reconnecting: 'Reconnecting',
    connectedTo: 'Connected to',
    focusLast: 'Focus the last run cell',
    moreOptions: 'Additional connection options',
  },
  /** The caret that collapses and shows the header (§11.3, ColabFold#542); the label is invented. */
  headerToggle: 'Toggle header visibility',
  runCell: 'Run cell',
  dialogs: {
    yes: 'Yes',
    no: 'No',
    cancel: 'Cancel',
    close: 'Close',
    // §2: no capture of this dialog exists; yes/no texts per the frontend's generic yes/no helper.
    restartTitle: 'Restart session?',
    restartBody:
      'Are you sure you want to restart the session? Session state including all local variables will be lost.',
    gpuTitle: 'Cannot connect to GPU backend',
    gpuBody: 'You cannot currently connect to a GPU due to usage limits in Colab.',
    gpuOk: 'Connect without GPU',
    disconnectedTitle: 'Runtime disconnected',
    disconnectedBody: 'Your runtime has been disconnected due to inactivity or reaching its maximum duration.',
    // §12.4: the same title, their own bodies (fast-stable-diffusion#2622; colabtools#5290); the buttons are invented.
    disconnectedDisallowedBody:
      'Your runtime has been disconnected due to executing code that is disallowed in our free of charge tier. If ' +
      'you believe this message is in error, file an appeal. Your compute unit balance is 0. To connect to a new ' +
      'runtime, click the connect button below.',
    disconnectedZeroUnitsBody:
      'You currently have zero compute units available. To connect to a new runtime, click the connect button below.',
    reconnect: 'Reconnect',
    // Invented (no source): a plain usage-limit notice with an upsell as its primary action.
    usageTitle: 'Usage limit reached',
    usageBody: 'You have reached your usage limit for this runtime type. Upgrade to Colab Pro for more compute units.',
    upgrade: 'Upgrade',
    highRamTitle: 'Switch to a high-RAM runtime?',
    highRamBody:
      'Your session crashed after using all available RAM. Would you like to use a high-RAM runtime with this ' +
      "notebook? Your current runtime's state will be lost, including local files.",
    notAuthoredTitle: 'Warning: This notebook was not authored by Google',
    notAuthoredBody:
      'This notebook was not authored by Google. It may request access to your data stored with Google, or read ' +
      'data and credentials from other sessions. Please review the source code before executing this notebook.',
    runAnyway: 'Run anyway',
    // Invented wording (tdulcet only shows the element and its mwc-button).
    recaptchaTitle: 'Please confirm you are not a robot',
    ok: 'OK',
    // §11.2 (2025-26). Captured texts: the pip warning's title/buttons and "previously imported … newly installed",
    // the Drive question and its buttons, "New runtime required"/"Assign new runtime", "Warning"/"Cancel execution"/
    // "Continue anyway", "Changing runtime attributes may terminate your current session", "Cannot save changes".
    // The bodies' other words are invented.
    save: 'Save',
    pipTitle: 'Restart session',
    pipBody:
      'WARNING: The following packages were previously imported in this runtime: [numpy] You must restart the ' +
      'runtime in order to use newly installed versions.',
    pipOk: 'Restart session',
    driveTitle: 'Permit this notebook to access your Google Drive files?',
    driveBody:
      'This notebook is requesting access to your Google Drive files. Granting access to Google Drive will permit ' +
      'code executed in the notebook to modify files in your Google Drive.',
    driveOk: 'Connect to Google Drive',
    driveNo: 'No, thanks',
    newRuntimeTitle: 'New runtime required',
    newRuntimeBody: 'The runtime this notebook was using is no longer available to it.',
    newRuntimeOk: 'Assign new runtime',
    disallowedTitle: 'Warning',
    disallowedBody:
      'You may be executing code that is disallowed, and this may restrict your ability to use Colab in the future. ' +
      'Please note the prohibited actions specified in our FAQ.',
    disallowedOk: 'Cancel execution',
    disallowedNo: 'Continue anyway',
    runtimeTypeTitle: 'Change runtime type',
    runtimeTypeBody: 'Changing runtime attributes may terminate your current session.',
    cannotSaveTitle: 'Cannot save changes',
    cannotSaveBody: 'This notebook could not be saved. Changes made from now on may be lost.',
    deleteRuntimeTitle: 'Disconnect and delete runtime',
    deleteRuntimeBody: 'Delete this runtime and all files on it?',
  },
  crash: {
    ram: 'Your session crashed after using all available RAM.',
    ramLegacy:
      'Your session crashed after using all available RAM. If you are interested in access to high-RAM runtimes, ' +
      'you may want to check out Colab Pro.',
    unknown: 'Your session crashed for an unknown reason.',
    'x-window': 'Your session crashed after requesting an X window. The X window system is not available in Colab.',
    getMoreRam: 'Get more RAM',
    viewLogs: 'View runtime logs',
    // §5.1 "Other toasts" (frontend JS); an outage (colabtools#5650).
    unableToConnect: 'Unable to connect to the runtime.',
  },
};

const EN_LEGACY = merge(EN_2026, {
  items: {
    restart: 'Restart runtime',
    'restart-and-run-all': 'Restart and run all',
    'powerwash-current-vm': 'Factory reset runtime',
    runafter: 'Run after',
  },
  dialogs: {
    restartTitle: 'Restart runtime?',
    restartBody:
      'Are you sure you want to restart the runtime? Runtime state including all local variables will be lost.',
  },
});

/** Legacy Runtime-menu accelerators (§3 shortcuts; the 2026 capture has none). */
export const LEGACY_ACCELS = {
  runall: 'Ctrl+F9',
  runbefore: 'Ctrl+F8',
  runfocused: 'Ctrl+Enter',
  runselected: 'Ctrl+Shift+Enter',
  runafter: 'Ctrl+F10',
  interrupt: 'Ctrl+M I',
  restart: 'Ctrl+M .',
};

const DE = merge(EN_2026, {
  menus: {
    file: 'Datei',
    edit: 'Bearbeiten',
    view: 'Ansicht',
    insert: 'Einfügen',
    runtime: 'Laufzeit',
    tools: 'Tools',
    help: 'Hilfe',
  },
  items: {
    runall: 'Alle ausführen',
    runbefore: 'Vorherige ausführen',
    runfocused: 'Fokussierte Zelle ausführen',
    runselected: 'Auswahl ausführen',
    runafter: 'Zelle und folgende ausführen',
    interrupt: 'Ausführung unterbrechen',
    restart: 'Sitzung neu starten',
    'restart-and-run-all': 'Sitzung neu starten und alle ausführen',
    'powerwash-current-vm': 'Verbindung trennen und Laufzeit löschen',
    'change-runtime-type': 'Laufzeittyp ändern',
    'manage-sessions': 'Sitzungen verwalten',
    'open-resource-viewer': 'Ressourcen ansehen',
    'view-runtime-logs': 'Laufzeitprotokolle ansehen',
    'deploy-cloud-run': 'In Google Cloud Run bereitstellen',
    'new-notebook': 'Neues Notebook in Drive',
    open: 'Notebook öffnen',
    save: 'Speichern',
    print: 'Drucken',
    undo: 'Rückgängig machen',
    'clear-outputs': 'Alle Ausgaben löschen',
    'notebook-settings': 'Notebook-Einstellungen',
    'table-of-contents': 'Inhaltsverzeichnis',
    'notebook-info': 'Notebook-Informationen',
    'insert-cell-below': 'Codezelle',
    'insert-text-cell-below': 'Textzelle',
    'show-command-palette': 'Befehlspalette',
    preferences: 'Einstellungen',
    shortcuts: 'Tastenkombinationen',
    'open-differ': 'Notebooks vergleichen',
    faq: 'Häufig gestellte Fragen',
    'release-notes': 'Versionshinweise ansehen',
  },
  toolbar: {
    runAll: 'Alle ausführen',
    runAllTooltip: 'Alle Zellen im Notebook ausführen',
    moreActions: 'Weitere Aktionen',
    restart: 'Sitzung neu starten',
    'restart-and-run-all': 'Sitzung neu starten und alle ausführen',
    runafter: 'Fokussierte Zelle und alle folgenden ausführen',
    interrupt: 'Ausführung unterbrechen',
    'clear-outputs': 'Alle Ausgaben löschen',
  },
  connect: {
    connect: 'Verbinden',
    reconnect: 'Neu verbinden',
    connecting: 'Verbindung wird hergestellt',
    connectedTo: 'Verbunden mit',
    focusLast: 'Zuletzt ausgeführte Zelle fokussieren',
    moreOptions: 'Weitere Verbindungsoptionen',
  },
  runCell: 'Zelle ausführen',
  dialogs: {
    yes: 'Ja',
    no: 'Nein',
    cancel: 'Abbrechen',
    close: 'Schließen',
    restartTitle: 'Sitzung neu starten?',
    restartBody:
      'Möchten Sie die Sitzung wirklich neu starten? Der Sitzungsstatus einschließlich aller lokalen Variablen geht ' +
      'verloren.',
    gpuTitle: 'Keine Verbindung zum GPU-Backend möglich',
    gpuBody: 'Aufgrund von Nutzungslimits in Colab können Sie derzeit keine Verbindung zu einer GPU herstellen.',
    gpuOk: 'Ohne GPU verbinden',
    disconnectedTitle: 'Laufzeit getrennt',
    disconnectedBody:
      'Die Verbindung zu Ihrer Laufzeit wurde wegen Inaktivität oder Erreichen der maximalen Dauer getrennt.',
    reconnect: 'Neu verbinden',
    usageTitle: 'Nutzungslimit erreicht',
    usageBody:
      'Sie haben Ihr Nutzungslimit für diesen Laufzeittyp erreicht. Mit Colab Pro erhalten Sie mehr Recheneinheiten.',
    upgrade: 'Upgrade',
    highRamTitle: 'Zu einer Laufzeit mit viel RAM wechseln?',
    highRamBody:
      'Ihre Sitzung ist abgestürzt, nachdem der gesamte verfügbare RAM belegt war. Möchten Sie für dieses Notebook ' +
      'eine Laufzeit mit viel RAM verwenden?',
    notAuthoredTitle: 'Warnung: Dieses Notebook wurde nicht von Google erstellt',
    notAuthoredBody:
      'Dieses Notebook wurde nicht von Google erstellt. Bitte prüfen Sie den Quellcode, bevor Sie das Notebook ' +
      'ausführen.',
    runAnyway: 'Trotzdem ausführen',
    recaptchaTitle: 'Bitte bestätigen Sie, dass Sie kein Roboter sind',
    ok: 'OK',
    save: 'Speichern',
    pipTitle: 'Sitzung neu starten',
    pipBody:
      'WARNUNG: Die folgenden Pakete wurden zuvor in dieser Laufzeit importiert: [numpy] Sie müssen die Laufzeit ' +
      'neu starten, um die neu installierten Versionen zu verwenden.',
    pipOk: 'Sitzung neu starten',
    driveTitle: 'Diesem Notebook Zugriff auf Ihre Google Drive-Dateien erlauben?',
    driveBody: 'Dieses Notebook fordert Zugriff auf Ihre Google Drive-Dateien an.',
    driveOk: 'Mit Google Drive verbinden',
    driveNo: 'Nein danke',
    newRuntimeTitle: 'Neue Laufzeit erforderlich',
    newRuntimeBody: 'Die Laufzeit dieses Notebooks ist nicht mehr verfügbar.',
    newRuntimeOk: 'Neue Laufzeit zuweisen',
    disallowedTitle: 'Warnung',
    disallowedBody: 'Möglicherweise führen Sie Code aus, der nicht zulässig ist.',
    disallowedOk: 'Ausführung abbrechen',
    disallowedNo: 'Trotzdem fortfahren',
    runtimeTypeTitle: 'Laufzeittyp ändern',
    runtimeTypeBody: 'Wenn Sie die Laufzeitattribute ändern, wird Ihre aktuelle Sitzung möglicherweise beendet.',
    cannotSaveTitle: 'Änderungen können nicht gespeichert werden',
    cannotSaveBody: 'Dieses Notebook konnte nicht gespeichert werden.',
    deleteRuntimeTitle: 'Verbindung trennen und Laufzeit löschen',
    deleteRuntimeBody: 'Diese Laufzeit und alle Dateien darauf löschen?',
  },
  crash: {
    ram: 'Ihre Sitzung ist abgestürzt, nachdem der gesamte verfügbare RAM belegt war.',
    ramLegacy:
      'Ihre Sitzung ist abgestürzt, nachdem der gesamte verfügbare RAM belegt war. Wenn Sie Laufzeiten mit viel RAM ' +
      'nutzen möchten, sehen Sie sich Colab Pro an.',
    unknown: 'Ihre Sitzung ist aus einem unbekannten Grund abgestürzt.',
    'x-window':
      'Ihre Sitzung ist abgestürzt, nachdem ein X-Fenster angefordert wurde. Das X-Window-System ist in Colab nicht ' +
      'verfügbar.',
    getMoreRam: 'Mehr RAM erhalten',
    viewLogs: 'Laufzeitprotokolle ansehen',
  },
});

const JA = merge(EN_2026, {
  menus: {
    file: 'ファイル',
    edit: '編集',
    view: '表示',
    insert: '挿入',
    runtime: 'ランタイム',
    tools: 'ツール',
    help: 'ヘルプ',
  },
  items: {
    runall: 'すべてのセルを実行',
    runbefore: '前のセルを実行',
    runfocused: 'フォーカスされたセルを実行',
    runselected: '選択範囲を実行',
    runafter: '以降のセルを実行',
    interrupt: '実行を中断',
    restart: 'セッションを再起動する',
    'restart-and-run-all': 'セッションを再起動してすべて実行する',
    'powerwash-current-vm': 'ランタイムを接続解除して削除',
    'change-runtime-type': 'ランタイムのタイプを変更',
    'manage-sessions': 'セッションの管理',
    'open-resource-viewer': 'リソースを表示',
    'view-runtime-logs': 'ランタイム ログを表示',
    'deploy-cloud-run': 'Google Cloud Run にデプロイ',
    'new-notebook': 'ドライブで新しいノートブック',
    open: 'ノートブックを開く',
    save: '保存',
    print: '印刷',
    undo: '元に戻す',
    'clear-outputs': 'すべての出力をクリア',
    'notebook-settings': 'ノートブックの設定',
    'table-of-contents': '目次',
    'notebook-info': 'ノートブックの情報',
    'insert-cell-below': 'コードセル',
    'insert-text-cell-below': 'テキストセル',
    'show-command-palette': 'コマンド パレット',
    preferences: '設定',
    shortcuts: 'キーボード ショートカット',
    'open-differ': 'ノートブックを比較',
    faq: 'よくある質問',
    'release-notes': 'リリースノートを表示',
  },
  toolbar: {
    runAll: 'すべて実行',
    runAllTooltip: 'ノートブック内のすべてのセルを実行',
    moreActions: 'その他の操作',
    restart: 'セッションを再起動する',
    'restart-and-run-all': 'セッションを再起動してすべて実行する',
    runafter: 'フォーカスされたセルとそれ以降のすべてのセルを実行',
    interrupt: '実行を中断',
    'clear-outputs': 'すべての出力をクリア',
  },
  connect: {
    connect: '接続',
    reconnect: '再接続',
    connecting: '接続中',
    connectedTo: '接続先',
    focusLast: '最後に実行したセルにフォーカス',
    moreOptions: 'その他の接続オプション',
  },
  runCell: 'セルを実行',
  dialogs: {
    yes: 'はい',
    no: 'いいえ',
    cancel: 'キャンセル',
    close: '閉じる',
    restartTitle: 'セッションを再起動しますか？',
    restartBody: 'セッションを再起動してもよろしいですか？すべてのローカル変数を含むセッションの状態は失われます。',
    gpuTitle: 'GPU バックエンドに接続できません',
    gpuBody: 'Colab の使用量上限に達したため、現在 GPU に接続できません。',
    gpuOk: 'GPU なしで接続',
    disconnectedTitle: 'ランタイムの接続が解除されました',
    disconnectedBody: '操作が行われなかったか、最大時間に達したため、ランタイムの接続が解除されました。',
    reconnect: '再接続',
    usageTitle: '使用量の上限に達しました',
    usageBody:
      'このランタイム タイプの使用量の上限に達しました。Colab Pro にアップグレードするとコンピューティング ユニットが増えます。',
    upgrade: 'アップグレード',
    highRamTitle: '高 RAM ランタイムに切り替えますか？',
    highRamBody:
      '使用可能な RAM をすべて使用した後で、セッションがクラッシュしました。このノートブックで高 RAM ランタイムを使用しますか？',
    notAuthoredTitle: '警告: このノートブックは Google が作成したものではありません',
    notAuthoredBody:
      'このノートブックは Google が作成したものではありません。実行する前にソースコードを確認してください。',
    runAnyway: 'このまま実行',
    recaptchaTitle: 'ロボットではないことを確認してください',
    ok: 'OK',
    save: '保存',
    pipTitle: 'セッションを再起動する',
    pipBody:
      '警告: 次のパッケージはこのランタイムで以前にインポートされています: [numpy] 新しくインストールしたバージョンを' +
      '使用するには、ランタイムを再起動する必要があります。',
    pipOk: 'セッションを再起動する',
    driveTitle: 'このノートブックに Google ドライブのファイルへのアクセスを許可しますか？',
    driveBody: 'このノートブックは Google ドライブのファイルへのアクセスをリクエストしています。',
    driveOk: 'Google ドライブに接続',
    driveNo: '許可しない',
    newRuntimeTitle: '新しいランタイムが必要です',
    newRuntimeBody: 'このノートブックのランタイムは使用できなくなりました。',
    newRuntimeOk: '新しいランタイムを割り当てる',
    disallowedTitle: '警告',
    disallowedBody: '許可されていないコードを実行している可能性があります。',
    disallowedOk: '実行をキャンセル',
    disallowedNo: 'このまま続行',
    runtimeTypeTitle: 'ランタイムのタイプを変更',
    runtimeTypeBody: 'ランタイムの属性を変更すると、現在のセッションが終了する場合があります。',
    cannotSaveTitle: '変更を保存できません',
    cannotSaveBody: 'このノートブックを保存できませんでした。',
    deleteRuntimeTitle: 'ランタイムを接続解除して削除',
    deleteRuntimeBody: 'このランタイムと、その中のすべてのファイルを削除しますか？',
  },
  crash: {
    ram: '使用可能な RAM をすべて使用した後で、セッションがクラッシュしました。',
    ramLegacy:
      '使用可能な RAM をすべて使用した後で、セッションがクラッシュしました。高 RAM ランタイムを利用したい場合は、Colab Pro をご検討ください。',
    unknown: '不明な理由により、セッションがクラッシュしました。',
    'x-window':
      'X ウィンドウをリクエストした後で、セッションがクラッシュしました。Colab では X Window System を利用できません。',
    getMoreRam: 'RAM を増やす',
    viewLogs: 'ランタイム ログを表示',
  },
});

export const LABEL_SETS = { 'en-2026': EN_2026, 'en-legacy': EN_LEGACY, de: DE, ja: JA };

function merge(base, over) {
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) {
    out[key] = value && typeof value === 'object' && !Array.isArray(value) ? { ...base[key], ...value } : value;
  }
  return out;
}
