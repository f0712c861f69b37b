/**
 * Form validation that says what the server would say: antd rules built from the very zod field
 * schemas the server validates with (src-shared/api), their issues worded with the specification's
 * messages (section 5), the server's own field errors (a 400/409 problem's `errors`) shown inline, and
 * forms whose shown errors follow the interface language (useLocalisedForm).
 */
import { useEffect, useRef } from 'react';
import { Form, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import type { ApiError } from './http';

/** The specification's message for a zod issue, in the admin namespace. */
export function issueMessage(issue: z.core.$ZodIssue, t: TFunction, value: unknown): string {
  const blank = value === undefined || value === null || value === '';
  // A schema's own message is an i18n key under `validation.` (src-shared/api/fields.ts): it wins,
  // e.g. a path failing its pattern says how a path looks rather than "not valid".
  if (!blank && issue.message?.startsWith('validation.')) {
    return t(`admin:${issue.message}`, { defaultValue: t('admin:validation.invalid') });
  }
  switch (issue.code) {
    case 'invalid_type':
      return blank ? t('admin:validation.required') : t('admin:validation.invalid');
    case 'too_small':
      if (issue.origin === 'string') {
        return issue.minimum === 1 || blank
          ? t('admin:validation.required')
          : t('admin:validation.minLength', { min: issue.minimum });
      }
      if (issue.origin === 'array') return t('admin:validation.required');
      return t('admin:validation.min', { min: issue.minimum });
    case 'too_big':
      return issue.origin === 'string'
        ? t('admin:validation.maxLength', { max: issue.maximum })
        : t('admin:validation.max', { max: issue.maximum });
    case 'invalid_format':
      return issue.format === 'email' ? t('admin:validation.email') : t('admin:validation.invalid');
    default:
      return t('admin:validation.invalid');
  }
}

/**
 * An antd rule validating a field with its server schema. Blank optional fields are left alone
 * (`optional`), since the server only checks what is sent.
 */
export function zodRule(schema: z.ZodType, t: TFunction, { optional = false } = {}): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      if (optional && (value === undefined || value === null || value === '')) return;
      const result = schema.safeParse(value === null ? undefined : value);
      if (!result.success) throw new Error(issueMessage(result.error.issues[0]!, t, value));
    },
  };
}

/** The confirmation must repeat the password (`validation.passwordMismatch`, as the server's refine). */
export function confirmationRule(passwordField: string, t: TFunction): Rule {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      if (!value) throw new Error(t('admin:validation.required'));
      if (value !== getFieldValue(passwordField)) throw new Error(t('admin:validation.passwordMismatch'));
    },
  });
}

/**
 * Puts the server's field errors on the form's fields (`entries.0.pageId` → ['entries', 0, 'pageId']);
 * answers whether any field was marked, so the caller knows the error was shown inline — and then the
 * failure's toast is not shown (`ApiError.shownInPlace`).
 */
export function applyServerErrors(form: FormInstance, error: unknown): boolean {
  const fieldErrors = (error as Partial<ApiError> | null)?.fieldErrors;
  if (!fieldErrors) return false;
  const known = new Set(Object.keys(form.getFieldsValue(true) as Record<string, unknown>));
  const fields = Object.entries(fieldErrors)
    .filter(([name]) => known.has(name.split('.')[0]!))
    .map(([name, errors]) => ({
      name: name.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      errors,
    }));
  if (fields.length > 0) {
    form.setFields(fields);
    // The fields say it: no toast repeats it (http.ts waits for this before toasting).
    if (error && typeof error === 'object' && 'shownInPlace' in error)
      (error as ApiError).shownInPlace = true;
  }
  return fields.length > 0;
}

/**
 * antd's Form.useForm, whose shown errors follow the interface language: an error is kept as the words
 * of the language it was found in, so when the language changes the fields showing one are checked
 * again (their rules, built at render, word it anew). Use it for every form.
 */
export function useLocalisedForm<Values = unknown>(): [FormInstance<Values>] {
  const [form] = Form.useForm<Values>();
  const { i18n } = useTranslation();
  const language = i18n.language;
  const previous = useRef(language);
  useEffect(() => {
    if (previous.current === language) return;
    previous.current = language;
    // Only a form on screen has fields (an unmounted one answers none).
    const shown = form
      .getFieldsError()
      .filter((field) => field.errors.length > 0)
      .map((field) => field.name);
    if (shown.length > 0) form.validateFields(shown).catch(() => undefined);
  }, [form, language]);
  return [form];
}
