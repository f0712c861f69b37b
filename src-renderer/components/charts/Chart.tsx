/**
 * One dashboard chart (issue 30) over the contract's Chart (src-shared/api/dashboards.ts): bars, stacked
 * bars, lines or a pie, drawn by recharts (SVG). In Arabic the chart is mirrored — the category axis runs
 * right to left, the value axis stands on the right, the legend reads from the right —; labels come in
 * the interface language and every number in the user's digits (lib/format.ts). A "table" toggle shows the
 * same numbers as an antd table (the accessible view: a screen reader reads a table, not an SVG); a print
 * shows the drawing and its table (charts.css). A bar, a point, a slice or a table cell opens the list behind it (`onDrill`).
 */
import { useState, type ReactNode } from 'react';
import { Button, Card, Segmented, Table, Tooltip as AntTooltip } from 'antd';
import { BarChartOutlined, TableOutlined } from '@ant-design/icons';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useTranslation } from 'react-i18next';
import type { Chart as ChartData, Drill } from '../../../src-shared/api/dashboards';
import { categoryLabel } from '../../lib/dashboards-api';
import { formatNumber } from '../../lib/format';
import './charts.css';

/** Up to this many categories every label is shown; beyond, recharts skips what does not fit. */
const FEW_CATEGORIES = 6;
/** The characters of category labels a chart's axis holds side by side (a half-width card at 1280 px). */
const TICK_ROOM = 60;
/** The series' colours, in order (the house green first; distinct for colour-blind readers as far as 8 go). */
export const SERIES_COLOURS = [
  '#0f6e5f',
  '#e08a1e',
  '#3b6fb6',
  '#b8434b',
  '#7a5cad',
  '#5e9c3a',
  '#9a6b3f',
  '#4a9fb0',
];

export interface ChartProps {
  chart: ChartData;
  /** Opens the list behind a point; absent: points are not links. */
  onDrill?: (drill: Drill) => void;
  /** Drawing height in px (default 300). */
  height?: number;
  /** A fixed drawing width in px (tests); by default the chart takes its card's width. */
  width?: number;
  /** Numbers with one decimal (averages of days). */
  fractionDigits?: number;
  /** Shown in the card's head after the toggle (e.g. a note). */
  extra?: ReactNode;
}

/** One row of the drawing's data: the category's label and one value per series (by series key). */
type Row = { category: string; index: number } & Record<string, number | string>;

/** The chart's rows for recharts and the table: one per category, in the categories' order. */
export function chartRows(chart: ChartData, language: string): Row[] {
  return chart.categories.map((category, index) => {
    const row: Row = { category: categoryLabel(category, language), index };
    chart.series.forEach((s) => (row[s.key] = s.values[index] ?? 0));
    return row;
  });
}

/** The chart with its table view. */
export function Chart({ chart, onDrill, height = 300, width, fractionDigits = 0, extra }: ChartProps) {
  const { t, i18n } = useTranslation('dashboards');
  const language = i18n.language;
  const rtl = language === 'ar';
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const rows = chartRows(chart, language);
  const title = t(`chart.${chart.key}`, { defaultValue: chart.key });
  const seriesName = (key: string) => t(`series.${key}`, { defaultValue: key });
  const number = (v: number) => formatNumber(v, language, fractionDigits);
  const drillAt = (series: number, category: number) => chart.drill?.[series]?.[category];
  const open = (series: number, category: number) => {
    const drill = drillAt(series, category);
    if (drill && onDrill) onDrill(drill);
  };
  const clickable = !!onDrill && !!chart.drill;
  const empty = chart.categories.length === 0;
  // A fixed size (tests) is given to the drawing itself; else ResponsiveContainer sizes it to its card.
  const size = width ? { width, height } : {};

  const tooltip = (
    <Tooltip
      formatter={(value, name) => [number(Number(value)), String(name)]}
      contentStyle={{ direction: rtl ? 'rtl' : 'ltr', textAlign: 'start' }}
    />
  );
  // In the series' order (recharts sorts by name by default), reading from the right in Arabic.
  const legend = (
    <Legend
      align={rtl ? 'right' : 'left'}
      itemSorter={null}
      wrapperStyle={{ direction: rtl ? 'rtl' : 'ltr' }}
    />
  );
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis
        dataKey="category"
        reversed={rtl}
        tick={{ fontSize: 12 }}
        // A few categories (departments, states) each keep their label, cut to the room a bar has (the
        // whole name is in the tooltip and the table); many (months, days) show as many as fit.
        interval={chart.categories.length <= FEW_CATEGORIES ? 0 : 'preserveStartEnd'}
        tickFormatter={(label: string) => {
          const n = chart.categories.length;
          const room = n <= 1 || n > FEW_CATEGORIES ? Infinity : Math.floor(TICK_ROOM / n);
          return label.length > room ? `${label.slice(0, Math.max(room - 1, 3))}…` : label;
        }}
      />
      <YAxis
        orientation={rtl ? 'right' : 'left'}
        tickFormatter={(v: number) => number(v)}
        allowDecimals={fractionDigits > 0}
        tick={{ fontSize: 12 }}
        width={56}
      />
    </>
  );

  let drawing: ReactNode;
  if (chart.kind === 'pie') {
    const series = chart.series[0];
    drawing = (
      <PieChart {...size}>
        <Pie
          data={rows}
          dataKey={series?.key ?? 'none'}
          nameKey="category"
          outerRadius="75%"
          isAnimationActive={false}
          onClick={(_, index) => open(0, index)}
          cursor={clickable ? 'pointer' : undefined}
        >
          {rows.map((row) => (
            <Cell key={row.index} fill={SERIES_COLOURS[row.index % SERIES_COLOURS.length]} />
          ))}
        </Pie>
        {tooltip}
        {legend}
      </PieChart>
    );
  } else if (chart.kind === 'line') {
    drawing = (
      <LineChart {...size} data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
        {axes}
        {tooltip}
        {legend}
        {chart.series.map((s, si) => {
          const colour = SERIES_COLOURS[si % SERIES_COLOURS.length]!;
          const dot = (props: { cx?: number; cy?: number; index: number }, r: number) => (
            <circle
              key={`${s.key}-${props.index}`}
              cx={props.cx}
              cy={props.cy}
              r={r}
              fill={colour}
              stroke="#fff"
              style={clickable ? { cursor: 'pointer' } : undefined}
              onClick={() => open(si, props.index)}
              data-testid={`chart-point-${chart.key}-${s.key}-${props.index}`}
            />
          );
          return (
            <Line
              key={s.key}
              type="monotone"
              dataKey={s.key}
              name={seriesName(s.key)}
              stroke={colour}
              strokeWidth={2}
              isAnimationActive={false}
              dot={(props) => dot(props, 3)}
              activeDot={(props) => dot(props, 6)}
            />
          );
        })}
      </LineChart>
    );
  } else {
    drawing = (
      <BarChart {...size} data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
        {axes}
        {tooltip}
        {legend}
        {chart.series.map((s, si) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={seriesName(s.key)}
            fill={SERIES_COLOURS[si % SERIES_COLOURS.length]}
            stackId={chart.kind === 'stackedBar' ? 'stack' : undefined}
            isAnimationActive={false}
            cursor={clickable ? 'pointer' : undefined}
            onClick={(_, index) => open(si, index)}
          />
        ))}
      </BarChart>
    );
  }

  const table = (
    <Table<Row>
      size="small"
      pagination={false}
      rowKey="index"
      dataSource={rows}
      className="chart-table"
      data-testid={`chart-table-${chart.key}`}
      aria-label={title}
      columns={[
        { key: 'category', title: t('table.category'), dataIndex: 'category' },
        ...chart.series.map((s, si) => ({
          key: s.key,
          title: seriesName(s.key),
          align: 'end' as const,
          render: (_: unknown, row: Row) => {
            const text = number(Number(row[s.key]));
            return clickable && drillAt(si, row.index) ? (
              <Button
                type="link"
                size="small"
                className="chart-table-link"
                onClick={() => open(si, row.index)}
                aria-label={`${row.category} — ${seriesName(s.key)}: ${text}`}
              >
                {text}
              </Button>
            ) : (
              text
            );
          },
        })),
      ]}
    />
  );

  return (
    <Card
      size="small"
      className="chart-card"
      title={<span id={`chart-title-${chart.key}`}>{title}</span>}
      data-testid={`chart-${chart.key}`}
      data-view={view}
      extra={
        <span className="chart-card-extra no-print">
          {extra}
          <Segmented<'chart' | 'table'>
            size="small"
            value={view}
            onChange={setView}
            aria-label={t('table.toggle')}
            data-testid={`chart-view-${chart.key}`}
            options={[
              {
                value: 'chart',
                label: (
                  <AntTooltip title={t('table.showChart')}>
                    <BarChartOutlined aria-label={t('table.showChart')} />
                  </AntTooltip>
                ),
              },
              {
                value: 'table',
                label: (
                  <AntTooltip title={t('table.showTable')}>
                    <TableOutlined aria-label={t('table.showTable')} />
                  </AntTooltip>
                ),
              },
            ]}
          />
        </span>
      }
    >
      {empty ? (
        <div className="chart-empty" data-testid={`chart-empty-${chart.key}`}>
          {t('empty')}
        </div>
      ) : (
        <>
          {view === 'chart' ? (
            <div
              className="chart-drawing"
              role="img"
              aria-labelledby={`chart-title-${chart.key}`}
              dir="ltr"
              data-testid={`chart-drawing-${chart.key}`}
              style={{ blockSize: height }}
            >
              {width ? (
                drawing
              ) : (
                <ResponsiveContainer width="100%" height={height}>
                  {drawing}
                </ResponsiveContainer>
              )}
            </div>
          ) : null}
          {/* Under the drawing the table is printed too (hidden on screen); alone in the table view. */}
          <div className={view === 'table' ? 'chart-table-wrap' : 'chart-table-wrap print-only-table'}>
            {table}
          </div>
        </>
      )}
    </Card>
  );
}
