/** Correspondence settings — priorities: the generic settings list block over its declaration. */
import { SettingsListScreen } from './SettingsListScreen';
import { SETTINGS_LISTS } from './declarations';

/** The route's screen. */
export function Component() {
  return <SettingsListScreen spec={SETTINGS_LISTS.priorities} />;
}
