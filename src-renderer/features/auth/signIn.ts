/** What the sign-in screens do with the outcome of a step: go on, ask for the code, or show why not. */
import type { NavigateFunction } from 'react-router-dom';
import type { FormInstance } from 'antd';
import { afterSignInTarget, TWO_FACTOR_PATH } from '../../app/guard';
import { takeRememberedTarget, type StepOutcome } from '../../app/session';
import { i18n } from '../../lib/i18n';
import { toast } from '../../lib/toast';

/**
 * Follows a sign-in outcome: goes on (answers null), or says why not. A screen with a form (`form`) shows
 * the answer in place, and no toast repeats it (a toast over the logo would say the same thing twice);
 * without one, the reason is a toast.
 */
export function followSignIn(
  outcome: StepOutcome,
  navigate: NavigateFunction,
  form?: FormInstance,
  fieldNames: Record<string, string> = {},
): string | null {
  if (outcome.result === 'signedIn') {
    navigate(afterSignInTarget(takeRememberedTarget()), { replace: true });
    return null;
  }
  if (outcome.result === 'twoFactor') {
    navigate(TWO_FACTOR_PATH, { replace: true });
    return null;
  }
  if (outcome.result === 'failed') {
    const detail = i18n.t(outcome.error.code, { defaultValue: i18n.t('errors.unexpected') });
    if (!form) toast({ severity: 'error', detail });
    return detail;
  }
  const fields = Object.entries(outcome.errors ?? {})
    .map(([name, messages]) => ({ name: fieldNames[name] ?? name, errors: messages }))
    .filter((f) => form && (form.getFieldInstance(f.name) !== undefined || fieldNames[f.name] !== undefined));
  if (form && fields.length > 0) form.setFields(fields);
  const detail = outcome.detail || i18n.t('errors.unexpected');
  if (!form) toast({ severity: 'error', detail });
  return detail;
}
