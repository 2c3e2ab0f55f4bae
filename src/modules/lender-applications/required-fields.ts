/**
 * A lender's required fields (spec 2.7): each rule names a document path, required always, or only
 * when every condition holds (another field's value, or several combined). An application missing
 * any is not sent; the submitter is told which.
 */
import { valueAtPath } from '../../kernel/document-path.js';

/**
 * A field a lender requires in the funding application document (spec 2.7), stored in
 * lender.requiredFields as an array. `field` and condition fields are dot paths from the document
 * root (e.g. "application.profile.basicCompanyDetails.companyNumber"). Without `when` the field is
 * always required; with `when` it is required only when every condition holds.
 */
export interface RequiredFieldRule {
  field: string;
  when?: FieldCondition[];
  /** Human-readable reason, shown in a validation failure. */
  message?: string;
}
interface FieldCondition {
  field: string;
  equals?: string | number | boolean;
  oneOf?: Array<string | number | boolean>;
  /** For arrays: the array contains this value. */
  contains?: string | number;
  greaterThan?: number;
  lessThan?: number;
  /** true: the field is present and not null; false: absent or null. */
  exists?: boolean;
}

const present = (value: unknown) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

function holds(document: unknown, c: FieldCondition): boolean {
  const value = valueAtPath(document, c.field);
  if (c.exists !== undefined) return present(value) === c.exists;
  if (c.equals !== undefined) return value === c.equals;
  if (c.oneOf !== undefined) return c.oneOf.includes(value as string);
  if (c.contains !== undefined) return Array.isArray(value) && value.includes(c.contains);
  const number = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : NaN;
  if (c.greaterThan !== undefined) return number > c.greaterThan;
  if (c.lessThan !== undefined) return number < c.lessThan;
  return true;
}

/** The rules the document breaks: fields it lacks although required (under their conditions). */
export function missingRequiredFields(document: unknown, rules: readonly RequiredFieldRule[]): RequiredFieldRule[] {
  return rules.filter((rule) => (rule.when ?? []).every((c) => holds(document, c)) && !present(valueAtPath(document, rule.field)));
}
