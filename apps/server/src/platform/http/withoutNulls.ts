/*
 * The hosted product's API leaves an absent value out of an answer, and its schemas do not allow null
 * (docs/api.md, "Compatibility"). Presenters build their records with null where a value is absent, which
 * keeps each field visible in the code, and pass them through withoutNulls once, rather than each field
 * being left out by hand.
 */

/** Keys of T whose value may be null. */
type NullableKeys<T> = { [K in keyof T]-?: null extends T[K] ? K : never }[keyof T];

type Flatten<T> = { [K in keyof T]: T[K] };

/** T with every property that may be null made optional and not null, at every depth (arrays too). */
export type WithoutNulls<T> = T extends readonly (infer E)[]
  ? WithoutNulls<E>[]
  : T extends object
    ? Flatten<
        { [K in Exclude<keyof T, NullableKeys<T>>]: WithoutNulls<T[K]> } & {
          [K in NullableKeys<T>]?: WithoutNulls<Exclude<T[K], null>>;
        }
      >
    : T;

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== null) kept[key] = strip(item);
  return kept;
}

/**
 * The value with every property that is null left out, in nested records and in records inside arrays
 * (a null item of an array stays: leaving it out would shift the others). A new value; the argument is
 * not changed.
 */
export const withoutNulls = <T>(value: T): WithoutNulls<T> => strip(value) as WithoutNulls<T>;
