/**
 * A lender's required fields (spec 2.7): each rule names a document path, required always, or only
 * when every condition holds (another field's value, or several combined). An application missing
 * any is not sent; the submitter is told which.
 */
export interface FieldCondition {
  field: string;
  equals?: string | number | boolean;
  oneOf?: Array<string | number | boolean>;
  contains?: string | number;
  greaterThan?: number;
  lessThan?: number;
  exists?: boolean;
}

export interface RequiredFieldRule {
  field: string;
  when?: FieldCondition[];
  message?: string;
}

function valueAt(document: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), document);
}

const present = (value: unknown) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

function holds(document: unknown, c: FieldCondition): boolean {
  const value = valueAt(document, c.field);
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
  return rules.filter((rule) => (rule.when ?? []).every((c) => holds(document, c)) && !present(valueAt(document, rule.field)));
}
