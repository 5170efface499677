/**
 * Projections: both sides of a comparison reduced to what is compared, with the same keys in the same order, so
 * that equal projections mean "nothing to do" and their YAML diffs line by line. Pure.
 */
import { isRecord, type Json, jsonEqual } from '../json.js';
import { readRemote, type Shape } from './shape.js';

/** The file's side: declared fields in schema order, undeclared fields with a documented default filled in. */
export function expandDeclared(value: unknown, shape: Shape): unknown {
  if (shape.kind === 'value') return value;
  if (shape.kind === 'list') {
    return Array.isArray(value) ? value.map((item) => expandDeclared(item, shape.items)) : value;
  }
  if (!isRecord(value)) return value;
  const out: Json = {};
  for (const [key, field] of Object.entries(shape.fields)) {
    const declared = value[key] === undefined ? shape.defaults?.[key] : value[key];
    if (declared !== undefined) out[key] = expandDeclared(declared, field);
  }
  return out;
}

/**
 * The service's side, cut to the file's projection `declared`: only its keys (so server-managed fields, fields of
 * newer servers and the `timed` arrays the service adds never count), read under the service's names, a missing
 * or null defaulted field read as its default. List elements the file does not have are shown as pull would
 * write them.
 */
export function projectRemote(remote: unknown, declared: unknown, shape: Shape): unknown {
  if (shape.kind === 'value') return remote;
  if (shape.kind === 'list') {
    if (!Array.isArray(remote) || !Array.isArray(declared)) return remote;
    if (shape.match === 'index') {
      return remote.map((item, i) =>
        i < declared.length ? projectRemote(item, declared[i], shape.items) : fromRemote(item, shape.items),
      );
    }
    const { pairs, extra } = matchByName(declared, remote);
    return [
      ...pairs.flatMap(([mine, theirs]) =>
        theirs === undefined ? [] : [projectRemote(theirs, mine, shape.items)],
      ),
      ...extra.map((item) => fromRemote(item, shape.items)),
    ];
  }
  if (!isRecord(remote) || !isRecord(declared)) return remote;
  const out: Json = {};
  for (const [key, field] of Object.entries(shape.fields)) {
    if (declared[key] === undefined) continue;
    let held = readRemote(remote, key, shape);
    const fallback = shape.defaults?.[key];
    if ((held === undefined || held === null) && fallback !== undefined) held = fallback;
    if (held !== undefined) out[key] = projectRemote(held, declared[key], field);
  }
  return out;
}

/**
 * A stored value as a definition declares it: declarable fields only, in schema order, without server defaults,
 * the service's fill-ins, nulls the schema does not allow, or objects left empty. Used by pull and to show list
 * elements only the service has.
 */
export function fromRemote(remote: unknown, shape: Shape): unknown {
  // Stryker disable next-line ConditionalExpression: only value shapes have `nullable`, so the kind test is for types
  if (remote === null) return shape.kind === 'value' && shape.nullable === true ? null : undefined;
  if (shape.kind === 'value') return remote;
  if (shape.kind === 'list') {
    if (!Array.isArray(remote)) return remote;
    return remote.map((item) => fromRemote(item, shape.items)).filter((item) => item !== undefined);
  }
  if (!isRecord(remote)) return remote;
  const out: Json = {};
  for (const [key, field] of Object.entries(shape.fields)) {
    if (shape.pullSkips?.includes(key)) continue;
    const converted = fromRemote(readRemote(remote, key, shape), field);
    if (converted === undefined) continue;
    if (field.kind === 'object' && isRecord(converted) && Object.keys(converted).length === 0) continue;
    const omitted = shape.defaults?.[key] ?? shape.pullOmits?.[key];
    if (omitted !== undefined && jsonEqual(converted, omitted)) continue;
    out[key] = converted;
  }
  return out;
}

/** Each declared element with the first unused stored element of the same name, and the stored ones left over. */
export function matchByName(
  declared: readonly unknown[],
  remote: readonly unknown[],
): { pairs: Array<[unknown, unknown]>; extra: unknown[] } {
  const used = new Set<number>();
  const pairs = declared.map((mine): [unknown, unknown] => {
    const name = nameOf(mine);
    const index = remote.findIndex(
      (theirs, k) => !used.has(k) && name !== undefined && nameOf(theirs) === name,
    );
    used.add(index); // -1 (none) marks nothing and pairs `mine` with undefined
    return [mine, remote[index]];
  });
  return { pairs, extra: remote.filter((_, k) => !used.has(k)) };
}

function nameOf(value: unknown): unknown {
  return isRecord(value) ? value.name : undefined;
}
