/**
 * A select over a settings list's active options (mediums, priorities, security levels, codifications),
 * names in the interface language; codifications may be narrowed to one direction.
 */
import { useEffect } from 'react';
import { Form, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Direction, SettingsList } from '../../../../src-shared/api/correspondence';
import { localName } from '../../../lib/names';
import { corrKeys, settingsApi } from './api';

/**
 * A form control choosing one item of a settings list (value: its id). A required field with exactly one
 * possible item (one incoming codification, say) chooses it by itself: there is nothing to ask.
 *
 * In a form, pass the field's `name`: the only item is then the field's value as a default is (set on the
 * form, not through `onChange`), so a form that saves as the user types (a draft) sees no edit, and a form
 * merely opened leaves nothing behind.
 */
export function SettingSelect({
  list,
  direction,
  value,
  onChange,
  id,
  testId,
  required = false,
  placeholder,
  name,
}: {
  list: SettingsList;
  direction?: Direction;
  value?: number | null;
  onChange?: (value: number | null) => void;
  id?: string;
  testId?: string;
  required?: boolean;
  /** Shown while nothing is chosen (default: "Choose"). */
  placeholder?: string;
  /** The form field this select fills (see above). */
  name?: string;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const options = useQuery({
    queryKey: corrKeys.settingsOptions(list),
    queryFn: () => settingsApi.options(list),
  });
  const candidates = (options.data ?? []).filter((o) => !direction || o.direction === direction);
  const only = required && candidates.length === 1 ? candidates[0]!.id : null;
  const form = Form.useFormInstance() as ReturnType<typeof Form.useFormInstance> | undefined;
  useEffect(() => {
    if (only === null || (value !== undefined && value !== null)) return;
    if (name !== undefined && form) form.setFieldValue(name, only);
    else onChange?.(only);
  }, [only, value, onChange, name, form]);
  return (
    <Select<number>
      id={id}
      data-testid={testId}
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? null)}
      loading={options.isLoading}
      placeholder={placeholder ?? t('form.choose')}
      aria-label={placeholder}
      options={candidates.map((o) => ({
        value: o.id,
        label: o.prefix ? `${localName(o, i18n.language)} (${o.prefix})` : localName(o, i18n.language),
      }))}
    />
  );
}
