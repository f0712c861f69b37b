/**
 * A select over a settings list's active options (mediums, priorities, security levels, codifications),
 * names in the interface language; codifications may be narrowed to one direction.
 */
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Direction, SettingsList } from '../../../../src-shared/api/correspondence';
import { localName } from '../../admin/names';
import { corrKeys, settingsApi } from './api';

/** A form control choosing one item of a settings list (value: its id). */
export function SettingSelect({
  list,
  direction,
  value,
  onChange,
  id,
  testId,
}: {
  list: SettingsList;
  direction?: Direction;
  value?: number | null;
  onChange?: (value: number | null) => void;
  id?: string;
  testId?: string;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const options = useQuery({
    queryKey: corrKeys.settingsOptions(list),
    queryFn: () => settingsApi.options(list),
  });
  return (
    <Select<number>
      id={id}
      data-testid={testId}
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? null)}
      loading={options.isLoading}
      placeholder={t('form.choose')}
      options={(options.data ?? [])
        .filter((o) => !direction || o.direction === direction)
        .map((o) => ({
          value: o.id,
          label: o.prefix ? `${localName(o, i18n.language)} (${o.prefix})` : localName(o, i18n.language),
        }))}
    />
  );
}
