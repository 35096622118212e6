import type { Operation } from './types';

/** "a, b and c" (at most `max` names, then "and 4 more"): a long column list stays one readable line. */
export function nameList(names: readonly string[], max = 6): string {
  const shown = names.slice(0, max);
  const rest = names.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

const plural = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : many);

/**
 * One line a person reads for an operation ("Drop columns id and constant_col"), from its fields; the JSON editor
 * shows every field, this line the ones that say what happens.
 */
export function describeOperation(op: Operation): string {
  switch (op.op) {
    case 'drop_columns':
      return `Drop ${plural(op.columns.length, 'column')} ${nameList(op.columns)}`;
    case 'rename_column':
      return `Rename ${op.column} to ${op.to}`;
    case 'cast':
      return `Convert ${op.column} to ${op.to}${op.on_error === 'fail' ? ' (fail on a value that does not convert)' : ''}`;
    case 'parse_dates':
      return `Parse ${op.column} as dates${op.format ? ` (format ${op.format})` : ''}`;
    case 'impute': {
      const how = op.strategy === 'constant' ? `the value ${JSON.stringify(op.value ?? null)}` : `the ${op.strategy}`;
      return `Fill missing ${op.column} with ${how}${op.indicator ? `, flagged in ${op.column}_missing` : ''}`;
    }
    case 'handle_outliers': {
      const bounds = op.method === 'percentile' ? `outside percentiles ${op.lower_percentile ?? 1}–${op.upper_percentile ?? 99}` : `beyond ${op.factor ?? 1.5} × IQR`;
      const action = op.action === 'drop_rows' ? 'Drop rows with' : op.action === 'flag' ? 'Flag' : 'Clip';
      return `${action} outliers of ${op.column} ${bounds}`;
    }
    case 'deduplicate':
      return op.columns ? `Remove duplicate rows over ${nameList(op.columns)}` : 'Remove duplicate rows';
    case 'filter_rows':
      return `Keep rows where ${op.condition}`;
    case 'one_hot_encode':
      return `One-hot encode ${op.column} (top ${op.max_categories ?? 20} values${op.keep_original ? ', keeping the column' : ''})`;
    case 'ordinal_encode':
      return `Number the values of ${op.column}${op.order ? ` in the order ${nameList(op.order)}` : ' in sorted order'}`;
    case 'bin': {
      const kind = op.strategy === 'equal_width' ? 'equal-width' : 'quantile';
      const how = op.strategy === 'edges' && op.edges ? `at ${op.edges.join(', ')}` : `into ${op.bins ? `${op.bins} ` : ''}${kind} bins`;
      return `Bin ${op.column} ${how}${op.into ? ` as ${op.into}` : ''}`;
    }
    case 'derive':
      return `Add ${op.name} = ${op.expression}`;
    case 'join':
      return `Join another dataset version on ${op.on.map((k) => (k.left === k.right ? k.left : `${k.left} = ${k.right}`)).join(', ')} (${op.how ?? 'left'} join)`;
    case 'split_column':
      return `Split ${op.column} on "${op.separator}" into ${nameList(op.into)}`;
    case 'normalize_text': {
      const what = [op.trim !== false && 'trim', op.collapse_whitespace !== false && 'collapse spaces', op.case && op.case !== 'keep' && `${op.case}case`].filter(Boolean);
      return `Tidy the text of ${nameList(op.columns)}${what.length ? ` (${what.join(', ')})` : ''}`;
    }
    default:
      // An operation kind newer than this page: its raw form still says what it is.
      return JSON.stringify(op);
  }
}
