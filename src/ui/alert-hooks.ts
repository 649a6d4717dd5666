import { ALERT_LOG_KEY, type AlertLog, parseAlertLog } from '../state/alert-delivery';
import { ALERTS_KEY, type AlertsConfig, parseAlertsConfig } from '../state/alerts';
import { useLocalKey } from './hooks';

export function useAlertsConfig(): AlertsConfig | undefined {
  return useLocalKey(ALERTS_KEY, parseAlertsConfig);
}

export function useAlertLog(): AlertLog | undefined {
  return useLocalKey(ALERT_LOG_KEY, parseAlertLog);
}
