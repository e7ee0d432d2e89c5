/** The keys of T whose value may be null or undefined. */
type AbsentKeys<T> = { [K in keyof T]-?: null extends T[K] ? K : undefined extends T[K] ? K : never }[keyof T];

/** T with its nullable fields made optional and never null: what omitAbsent leaves of a record. */
export type OmitAbsent<T> = { [K in Exclude<keyof T, AbsentKeys<T>>]: T[K] } & { [K in AbsentKeys<T>]?: NonNullable<T[K]> };

/**
 * The record without its null and undefined fields. The hosted product's API leaves an absent value out of
 * an answer rather than writing null, and its schemas refuse null (docs/decisions.md, "Absent values"), so
 * the presenters of those answers pass their record through here instead of dropping fields one by one.
 * Shallow on purpose: a nested record is trimmed by the presenter that builds it, where its shape is known.
 */
export function omitAbsent<T extends object>(record: T): OmitAbsent<T> {
  const present: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value !== null && value !== undefined) present[key] = value;
  }
  return present as OmitAbsent<T>;
}
