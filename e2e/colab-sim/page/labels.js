// UI label sets (scenario `ui.labels`, or the address's `?hl=`). Commands never change between sets; labels do (§1.1
// label history, §12.3). 'en-2026' is verbatim from the 2026 capture and Colab's frontend JS (§0, §2, §5).
// 'en-legacy' uses the pre-2024 labels quoted in §1.1. The other languages are whole interfaces (menus, dialogs,
// notices) in which only what §12.3 records was seen in Colab, marked "§12.3" below; everything else in them is a
// plausible translation, NOT captured from Colab (none of the crash notice, the disconnect dialog or any dialog's
// buttons was): they exist so that a test can prove the extension does not depend on English text where it need
// not, and that it says what it cannot read.

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
    runtime: 'ランタイム', // §12.3
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
    restart: 'セッションを再起動', // §12.3
    'restart-and-run-all': 'セッションを再起動してすべて実行', // §12.3
    'powerwash-current-vm': 'ランタイムを接続解除して削除',
    'change-runtime-type': 'ランタイムのタイプを変更', // §12.3
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
    restart: 'セッションを再起動',
    'restart-and-run-all': 'セッションを再起動してすべて実行',
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

const ES = merge(EN_2026, {
  menus: {
    file: 'Archivo',
    edit: 'Editar',
    view: 'Ver',
    insert: 'Insertar',
    runtime: 'Entorno de ejecución', // §12.3
    tools: 'Herramientas',
    help: 'Ayuda',
  },
  items: {
    runall: 'Ejecutar todas',
    runbefore: 'Ejecutar anteriores',
    runfocused: 'Ejecutar la celda seleccionada',
    runselected: 'Ejecutar selección',
    runafter: 'Ejecutar celda y siguientes',
    interrupt: 'Interrumpir ejecución',
    restart: 'Reiniciar sesión',
    'restart-and-run-all': 'Reiniciar sesión y ejecutar todo', // §12.3
    'powerwash-current-vm': 'Desconectar y eliminar entorno de ejecución',
    'change-runtime-type': 'Cambiar tipo de entorno de ejecución',
    'manage-sessions': 'Gestionar sesiones',
    'open-resource-viewer': 'Ver recursos',
    'view-runtime-logs': 'Ver registros del entorno de ejecución',
    'deploy-cloud-run': 'Implementar en Google Cloud Run',
    'new-notebook': 'Nuevo cuaderno en Drive',
    open: 'Abrir cuaderno',
    save: 'Guardar',
    print: 'Imprimir',
    undo: 'Deshacer',
    'clear-outputs': 'Borrar todos los resultados',
    'notebook-settings': 'Configuración del cuaderno',
    'table-of-contents': 'Índice',
    'notebook-info': 'Información del cuaderno',
    'insert-cell-below': 'Celda de código',
    'insert-text-cell-below': 'Celda de texto',
    'show-command-palette': 'Paleta de comandos',
    preferences: 'Configuración',
    shortcuts: 'Combinaciones de teclas',
    'open-differ': 'Comparar cuadernos',
    faq: 'Preguntas frecuentes',
    'release-notes': 'Ver notas de la versión',
  },
  toolbar: {
    runAll: 'Ejecutar todas',
    runAllTooltip: 'Ejecutar todas las celdas del cuaderno',
    moreActions: 'Más acciones',
    restart: 'Reiniciar sesión',
    'restart-and-run-all': 'Reiniciar sesión y ejecutar todo',
    runafter: 'Ejecutar la celda seleccionada y todas las siguientes',
    interrupt: 'Interrumpir ejecución',
    'clear-outputs': 'Borrar todos los resultados',
  },
  connect: {
    connect: 'Conectar',
    reconnect: 'Volver a conectar',
    connecting: 'Conectando',
    reconnecting: 'Volviendo a conectar',
    connectedTo: 'Conectado a',
    focusLast: 'Ir a la última celda ejecutada',
    moreOptions: 'Opciones de conexión adicionales',
  },
  headerToggle: 'Mostrar u ocultar el encabezado',
  runCell: 'Ejecutar celda',
  dialogs: {
    yes: 'Sí',
    no: 'No',
    cancel: 'Cancelar',
    close: 'Cerrar',
    restartTitle: '¿Reiniciar la sesión?',
    restartBody:
      '¿Seguro que quieres reiniciar la sesión? Se perderá el estado de la sesión, incluidas todas las variables ' +
      'locales.',
    gpuTitle: 'No se puede conectar al backend de GPU',
    gpuBody: 'Ahora no puedes conectarte a una GPU debido a los límites de uso de Colab.',
    gpuOk: 'Conectar sin GPU',
    disconnectedTitle: 'Entorno de ejecución desconectado',
    disconnectedBody:
      'Se ha desconectado tu entorno de ejecución por inactividad o porque ha alcanzado su duración máxima.',
    disconnectedDisallowedBody:
      'Se ha desconectado tu entorno de ejecución por ejecutar código no permitido en nuestro nivel gratuito. Si ' +
      'crees que se trata de un error, presenta una apelación. Tu saldo de unidades de computación es 0.',
    disconnectedZeroUnitsBody: 'Ahora tienes cero unidades de computación disponibles.',
    reconnect: 'Volver a conectar',
    usageTitle: 'Se ha alcanzado el límite de uso',
    usageBody: 'Has alcanzado el límite de uso de este tipo de entorno. Pasa a Colab Pro para tener más unidades.',
    upgrade: 'Mejorar',
    highRamTitle: '¿Cambiar a un entorno de ejecución con mucha RAM?',
    highRamBody:
      'Tu sesión ha fallado después de usar toda la RAM disponible. ¿Quieres usar un entorno de ejecución con ' +
      'mucha RAM en este cuaderno?',
    notAuthoredTitle: 'Advertencia: Este cuaderno no lo ha creado Google',
    notAuthoredBody: 'Este cuaderno no lo ha creado Google. Revisa el código fuente antes de ejecutarlo.',
    runAnyway: 'Ejecutar de todos modos',
    recaptchaTitle: 'Confirma que no eres un robot',
    ok: 'Aceptar',
    save: 'Guardar',
    pipTitle: 'Reiniciar sesión',
    pipBody:
      'ADVERTENCIA: Los siguientes paquetes se importaron antes en este entorno de ejecución: [numpy] Debes ' +
      'reiniciar el entorno para usar las versiones recién instaladas.',
    pipOk: 'Reiniciar sesión',
    driveTitle: '¿Permitir que este cuaderno acceda a tus archivos de Google Drive?',
    driveBody: 'Este cuaderno solicita acceso a tus archivos de Google Drive.',
    driveOk: 'Conectar con Google Drive',
    driveNo: 'No, gracias',
    newRuntimeTitle: 'Se necesita un entorno de ejecución nuevo',
    newRuntimeBody: 'El entorno de ejecución de este cuaderno ya no está disponible.',
    newRuntimeOk: 'Asignar un entorno nuevo',
    disallowedTitle: 'Advertencia',
    disallowedBody: 'Es posible que estés ejecutando código no permitido.',
    disallowedOk: 'Cancelar ejecución',
    disallowedNo: 'Continuar de todos modos',
    runtimeTypeTitle: 'Cambiar tipo de entorno de ejecución',
    runtimeTypeBody: 'Si cambias los atributos del entorno, puede que se cierre tu sesión actual.',
    cannotSaveTitle: 'No se pueden guardar los cambios',
    cannotSaveBody: 'No se ha podido guardar este cuaderno.',
    deleteRuntimeTitle: 'Desconectar y eliminar entorno de ejecución',
    deleteRuntimeBody: '¿Eliminar este entorno de ejecución y todos sus archivos?',
  },
  crash: {
    ram: 'Tu sesión ha fallado después de usar toda la RAM disponible.',
    ramLegacy:
      'Tu sesión ha fallado después de usar toda la RAM disponible. Si te interesan los entornos con mucha RAM, ' +
      'echa un vistazo a Colab Pro.',
    unknown: 'Tu sesión ha fallado por un motivo desconocido.',
    'x-window': 'Tu sesión ha fallado después de solicitar una ventana X. El sistema X Window no está en Colab.',
    getMoreRam: 'Obtener más RAM',
    viewLogs: 'Ver registros del entorno de ejecución',
    unableToConnect: 'No se puede conectar al entorno de ejecución.',
  },
});

const PT = merge(EN_2026, {
  menus: {
    file: 'Arquivo',
    edit: 'Editar',
    view: 'Ver',
    insert: 'Inserir',
    runtime: 'Ambiente de execução', // §12.3
    tools: 'Ferramentas',
    help: 'Ajuda',
  },
  items: {
    runall: 'Executar tudo', // §12.3
    runbefore: 'Executar anteriores',
    runfocused: 'Executar a célula em foco',
    runselected: 'Executar seleção',
    runafter: 'Executar a célula e as seguintes',
    interrupt: 'Interromper execução',
    restart: 'Reiniciar sessão',
    'restart-and-run-all': 'Reiniciar sessão e executar tudo', // §12.3
    'powerwash-current-vm': 'Desconectar e excluir ambiente de execução',
    'change-runtime-type': 'Alterar o tipo de ambiente de execução',
    'manage-sessions': 'Gerenciar sessões',
    'open-resource-viewer': 'Ver recursos',
    'view-runtime-logs': 'Ver registros do ambiente de execução',
    'deploy-cloud-run': 'Implantar no Google Cloud Run',
    'new-notebook': 'Novo notebook no Drive',
    open: 'Abrir notebook',
    save: 'Salvar',
    print: 'Imprimir',
    undo: 'Desfazer',
    'clear-outputs': 'Limpar todas as saídas',
    'notebook-settings': 'Configurações do notebook',
    'table-of-contents': 'Índice',
    'notebook-info': 'Informações do notebook',
    'insert-cell-below': 'Célula de código',
    'insert-text-cell-below': 'Célula de texto',
    'show-command-palette': 'Paleta de comandos',
    preferences: 'Configurações',
    shortcuts: 'Atalhos do teclado',
    'open-differ': 'Comparar notebooks',
    faq: 'Perguntas frequentes',
    'release-notes': 'Ver notas da versão',
  },
  toolbar: {
    runAll: 'Executar tudo', // §12.3
    runAllTooltip: 'Executar todas as células do notebook',
    moreActions: 'Mais ações',
    restart: 'Reiniciar sessão',
    'restart-and-run-all': 'Reiniciar sessão e executar tudo',
    runafter: 'Executar a célula em foco e todas as seguintes',
    interrupt: 'Interromper execução',
    'clear-outputs': 'Limpar todas as saídas',
  },
  connect: {
    connect: 'Conectar',
    reconnect: 'Reconectar',
    connecting: 'Conectando',
    reconnecting: 'Reconectando',
    connectedTo: 'Conectado a',
    focusLast: 'Focar a última célula executada',
    moreOptions: 'Mais opções de conexão',
  },
  headerToggle: 'Mostrar ou ocultar o cabeçalho',
  runCell: 'Executar célula',
  dialogs: {
    yes: 'Sim',
    no: 'Não',
    cancel: 'Cancelar',
    close: 'Fechar',
    restartTitle: 'Reiniciar a sessão?',
    restartBody:
      'Tem certeza de que quer reiniciar a sessão? O estado da sessão, incluindo todas as variáveis locais, será ' +
      'perdido.',
    gpuTitle: 'Não é possível conectar ao back-end de GPU',
    gpuBody: 'No momento, não é possível conectar a uma GPU devido aos limites de uso do Colab.',
    gpuOk: 'Conectar sem GPU',
    disconnectedTitle: 'Ambiente de execução desconectado',
    disconnectedBody: 'Seu ambiente de execução foi desconectado por inatividade ou porque atingiu a duração máxima.',
    disconnectedDisallowedBody:
      'Seu ambiente de execução foi desconectado por executar código não permitido no nível sem custo financeiro. Se ' +
      'você acha que isso é um erro, envie uma contestação. Seu saldo de unidades de computação é 0.',
    disconnectedZeroUnitsBody: 'No momento, você não tem unidades de computação disponíveis.',
    reconnect: 'Reconectar',
    usageTitle: 'Limite de uso atingido',
    usageBody: 'Você atingiu o limite de uso deste tipo de ambiente. Faça upgrade para o Colab Pro para ter mais.',
    upgrade: 'Fazer upgrade',
    highRamTitle: 'Mudar para um ambiente de execução com mais RAM?',
    highRamBody:
      'Sua sessão falhou após usar toda a RAM disponível. Quer usar um ambiente de execução com mais RAM neste ' +
      'notebook?',
    notAuthoredTitle: 'Aviso: este notebook não foi criado pelo Google',
    notAuthoredBody: 'Este notebook não foi criado pelo Google. Revise o código-fonte antes de executá-lo.',
    runAnyway: 'Executar mesmo assim',
    recaptchaTitle: 'Confirme que você não é um robô',
    ok: 'OK',
    save: 'Salvar',
    pipTitle: 'Reiniciar sessão',
    pipBody:
      'AVISO: Os pacotes a seguir foram importados antes neste ambiente de execução: [numpy] Você precisa ' +
      'reiniciar o ambiente para usar as versões recém-instaladas.',
    pipOk: 'Reiniciar sessão',
    driveTitle: 'Permitir que este notebook acesse seus arquivos do Google Drive?',
    driveBody: 'Este notebook está solicitando acesso aos seus arquivos do Google Drive.',
    driveOk: 'Conectar ao Google Drive',
    driveNo: 'Agora não',
    newRuntimeTitle: 'Novo ambiente de execução necessário',
    newRuntimeBody: 'O ambiente de execução deste notebook não está mais disponível.',
    newRuntimeOk: 'Atribuir novo ambiente',
    disallowedTitle: 'Aviso',
    disallowedBody: 'Você pode estar executando um código não permitido.',
    disallowedOk: 'Cancelar execução',
    disallowedNo: 'Continuar mesmo assim',
    runtimeTypeTitle: 'Alterar o tipo de ambiente de execução',
    runtimeTypeBody: 'Alterar os atributos do ambiente pode encerrar sua sessão atual.',
    cannotSaveTitle: 'Não é possível salvar as alterações',
    cannotSaveBody: 'Não foi possível salvar este notebook.',
    deleteRuntimeTitle: 'Desconectar e excluir ambiente de execução',
    deleteRuntimeBody: 'Excluir este ambiente de execução e todos os arquivos dele?',
  },
  crash: {
    ram: 'Sua sessão falhou após usar toda a RAM disponível.',
    ramLegacy:
      'Sua sessão falhou após usar toda a RAM disponível. Se tiver interesse em ambientes com mais RAM, confira o ' +
      'Colab Pro.',
    unknown: 'Sua sessão falhou por um motivo desconhecido.',
    'x-window': 'Sua sessão falhou após solicitar uma janela X. O sistema X Window não está disponível no Colab.',
    getMoreRam: 'Mais RAM',
    viewLogs: 'Ver registros do ambiente de execução',
    unableToConnect: 'Não foi possível conectar ao ambiente de execução.',
  },
});

export const LABEL_SETS = { 'en-2026': EN_2026, 'en-legacy': EN_LEGACY, de: DE, ja: JA, es: ES, pt: PT };

function merge(base, over) {
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) {
    out[key] = value && typeof value === 'object' && !Array.isArray(value) ? { ...base[key], ...value } : value;
  }
  return out;
}
