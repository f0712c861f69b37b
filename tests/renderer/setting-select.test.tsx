/**
 * A required settings select with exactly one possible item chooses it by itself (one incoming
 * codification needs no asking); with several, or when not required, it waits for the user. In a form
 * the choice is the field's default, not an edit: a draft form that saves as the user types sees none.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { Form } from 'antd';
import { initI18n } from '../../src-renderer/lib/i18n';
import { SettingSelect } from '../../src-renderer/features/correspondence/documents/SettingSelect';
import { fakeHttp, renderScreen } from './admin-harness';

const holder = vi.hoisted(() => ({
  fake: null as unknown as { http: Record<string, (...args: unknown[]) => unknown> },
}));
vi.mock('../../src-renderer/lib/http', () => ({
  http: {
    get: (...a: unknown[]) => holder.fake.http.get!(...a),
    post: (...a: unknown[]) => holder.fake.http.post!(...a),
    put: (...a: unknown[]) => holder.fake.http.put!(...a),
    patch: (...a: unknown[]) => holder.fake.http.patch!(...a),
    delete: (...a: unknown[]) => holder.fake.http.delete!(...a),
  },
}));

const cod = (id: number, direction: string) => ({
  id,
  list: 'codifications',
  nameAr: `ترميز ${id}`,
  nameEn: `Codification ${id}`,
  level: null,
  prefix: `C${id}`,
  direction,
  department: null,
  order: id,
  active: true,
});

function serve(items: unknown[]) {
  holder.fake = fakeHttp({ 'GET /correspondence/settings/codifications/options': () => items }) as never;
}

beforeAll(async () => {
  await initI18n('en');
});

describe('SettingSelect', () => {
  it('chooses the only incoming codification of a required field', async () => {
    serve([cod(1, 'in'), cod(2, 'out')]);
    const onChange = vi.fn();
    renderScreen(<SettingSelect list="codifications" direction="in" required onChange={onChange} />);
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(1));
  });

  it('leaves the choice to the user with several, or when the field is optional', async () => {
    serve([cod(1, 'in'), cod(3, 'in')]);
    const several = vi.fn();
    renderScreen(<SettingSelect list="codifications" direction="in" required onChange={several} />);
    serve([cod(1, 'in')]);
    const optional = vi.fn();
    renderScreen(<SettingSelect list="codifications" direction="in" onChange={optional} />);
    await new Promise((r) => setTimeout(r, 200));
    expect(several).not.toHaveBeenCalled();
    expect(optional).not.toHaveBeenCalled();
  });

  it('in a form, sets the field as a default: no change the form reports (a draft opened is not edited)', async () => {
    serve([cod(1, 'in')]);
    const changes = vi.fn();
    let values: () => unknown = () => undefined;
    function Harness() {
      const [form] = Form.useForm();
      values = () => form.getFieldValue('codificationId');
      return (
        <Form form={form} onValuesChange={changes}>
          <Form.Item name="codificationId">
            <SettingSelect list="codifications" direction="in" name="codificationId" required />
          </Form.Item>
        </Form>
      );
    }
    renderScreen(<Harness />);
    await waitFor(() => expect(values()).toBe(1));
    await new Promise((r) => setTimeout(r, 100));
    expect(changes).not.toHaveBeenCalled();
  });
});
