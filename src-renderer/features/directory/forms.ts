/**
 * Form rules of the Employee Centre: antd rules from the very zod field schemas the server validates
 * with, worded with the specification's messages (section 5). A schema message the directory knows
 * (`validation.phone`, `validation.date`, …) is said in the directory namespace; the rest as the
 * administration screens say them.
 */
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { issueMessage } from '../../lib/forms';
import { i18n } from '../../lib/i18n';

export { applyServerErrors, confirmationRule } from '../../lib/forms';

/** The message of a failed value: the directory's own wording when it has one. */
export function directoryIssueMessage(issue: z.core.$ZodIssue, t: TFunction, value: unknown): string {
  const blank = value === undefined || value === null || value === '';
  if (!blank && issue.message?.startsWith('validation.') && i18n.exists(`directory:${issue.message}`)) {
    return t(`directory:${issue.message}`);
  }
  return issueMessage(issue, t, value);
}

/** An antd rule validating a field with its server schema; blank optional fields are left alone. */
export function directoryRule(schema: z.ZodType, t: TFunction, { optional = false } = {}): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      if (optional && (value === undefined || value === null || value === '')) return;
      const result = schema.safeParse(value === null && !optional ? undefined : value);
      if (!result.success) throw new Error(directoryIssueMessage(result.error.issues[0]!, t, value));
    },
  };
}

/** A required choice (a picker): the specification's 'This field is required'. */
export function requiredRule(t: TFunction): Rule {
  return { required: true, message: t('directory:validation.required') };
}
