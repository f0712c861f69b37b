/** What the sign-in screens do with the outcome of a step: go on, ask for the code, or show why not. */
import type { NavigateFunction } from 'react-router-dom';
import type { FormInstance } from 'antd';
import { afterSignInTarget, TWO_FACTOR_PATH } from '../../app/guard';
import { takeRememberedTarget, type StepOutcome } from '../../app/session';
import { i18n } from '../../lib/i18n';
import { toast } from '../../lib/toast';

/** Follows a sign-in outcome; answers true when the user moved on. */
export function followSignIn(
  outcome: StepOutcome,
  navigate: NavigateFunction,
  form?: FormInstance,
  fieldNames: Record<string, string> = {},
): boolean {
  if (outcome.result === 'signedIn') {
    navigate(afterSignInTarget(takeRememberedTarget()), { replace: true });
    return true;
  }
  if (outcome.result === 'twoFactor') {
    navigate(TWO_FACTOR_PATH, { replace: true });
    return true;
  }
  if (outcome.result === 'failed') {
    toast({
      severity: 'error',
      detail: i18n.t(outcome.error.code, { defaultValue: i18n.t('errors.unexpected') }),
    });
    return false;
  }
  const fields = Object.entries(outcome.errors ?? {})
    .map(([name, messages]) => ({ name: fieldNames[name] ?? name, errors: messages }))
    .filter((f) => form && (form.getFieldInstance(f.name) !== undefined || fieldNames[f.name] !== undefined));
  if (form && fields.length > 0) form.setFields(fields);
  toast({ severity: 'error', detail: outcome.detail || i18n.t('errors.unexpected') });
  return false;
}
