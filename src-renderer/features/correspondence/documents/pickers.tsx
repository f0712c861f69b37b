/**
 * The one place the correspondence screens take their department and employee pickers from: the
 * directory screens own them (src-renderer/components/DepartmentPicker.tsx, EmployeePicker.tsx); this
 * adapter only narrows their props to what a single-choice form field needs.
 */
import type { DepartmentType } from '../../../../src-shared/api/directory';
import { DepartmentPicker } from '../../../components/DepartmentPicker';

export { EmployeePicker } from '../../../components/EmployeePicker';

/** One department for a form field (value: department id), optionally only internal or external ones. */
export function DepartmentSelect({
  value,
  onChange,
  testId,
  placeholder,
  type,
  id,
}: {
  value?: number | null;
  onChange?: (value: number | null) => void;
  testId?: string;
  placeholder?: string;
  type?: DepartmentType;
  id?: string;
}) {
  return (
    <DepartmentPicker
      id={id}
      value={value ?? null}
      onChange={(next) => onChange?.(typeof next === 'number' ? next : null)}
      type={type}
      placeholder={placeholder}
      data-testid={testId}
    />
  );
}

/** Several departments for a form field (value: department ids in the order chosen). */
export function DepartmentsSelect({
  value,
  onChange,
  testId,
  placeholder,
  type,
  id,
}: {
  value?: number[] | null;
  onChange?: (value: number[]) => void;
  testId?: string;
  placeholder?: string;
  type?: DepartmentType;
  id?: string;
}) {
  return (
    <DepartmentPicker
      id={id}
      multiple
      value={value ?? []}
      onChange={(next) => onChange?.(Array.isArray(next) ? next : typeof next === 'number' ? [next] : [])}
      type={type}
      placeholder={placeholder}
      data-testid={testId}
    />
  );
}
