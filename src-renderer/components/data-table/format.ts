/**
 * How lists show dates: the one formatting module of the renderer (lib/format.ts), re-exported where the
 * tables and filters have always found it.
 */
export { DATE_FORMAT, DATE_TIME_FORMAT, formatDate, formatDateTime } from '../../lib/format';
