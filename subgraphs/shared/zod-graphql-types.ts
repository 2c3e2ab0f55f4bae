/**
 * GraphQL object and input types derived from the domain's zod schemas, so a shape declared once
 * (`src/domain/**\/*-schemas.ts`) gives the REST validation, the TypeScript type and the GraphQL type.
 *
 * Mapping: objects → types named by their zod `id` (`.meta({ id })`) or by their parent's name and
 * field, with `Input` appended for input types; arrays → lists; strings → String (ID for a field
 * named `id` or ending in `Id`); whole numbers → Int, other numbers → Float; booleans → Boolean;
 * enums and literals → String, their allowed values in the description; optional, nullable or
 * defaulted fields → nullable. Enums stay String on purpose: stored documents are also written by
 * the registry and questionnaire answers, whose values a GraphQL enum would refuse to serialise,
 * and inputs are still checked by the same zod schema, failing with the same JSON pointers as REST.
 * Object types are `@shareable`: the same value type (e.g. Currency) appears in several subgraphs.
 * Two ways to keep a name or scalar clients already use: a string field's `.meta({ graphqlType })`
 * ('String' or 'ID') overrides the id naming rule, and `{ exactName: true }` keeps an input type's
 * name without the `Input` suffix.
 * A zod type without a GraphQL counterpart (records, unknown, ...) throws, so free-form JSON is
 * always an explicit choice made in the resolver.
 */
import { Directive, Field, Float, ID, InputType, Int, ObjectType, type ClassType } from 'type-graphql';
import { z } from 'zod';

declare module 'zod' {
  interface GlobalMeta {
    /** The GraphQL scalar of a string field when the id naming rule would choose the other one. */
    graphqlType?: 'String' | 'ID';
  }
}

type Kind = 'object' | 'input';
type Scalar = StringConstructor | BooleanConstructor | typeof Int | typeof Float | typeof ID;
type ZodAny = z.core.$ZodType;

interface FieldShape {
  name: string;
  type: Scalar | ClassType;
  typeName: string;
  list: boolean;
  nullable: boolean;
  itemsNullable: boolean;
  description?: string;
}

interface Derived {
  signature: string;
  type: ClassType;
}

const derivedByName = new Map<string, Derived>();
const SCALAR_NAMES = new Set(['String', 'ID', 'Int', 'Float', 'Boolean']);
const STRING_FORMATS: Record<string, string> = {
  datetime: 'An ISO 8601 date-time.',
  date: 'An ISO 8601 date.',
  email: 'An email address.',
  url: 'A URL.',
  uuid: 'A UUID.',
};

/** The GraphQL object type of a zod object schema (named by `name`, else by the schema's zod id). */
export function objectTypeFrom<S extends z.ZodObject>(schema: S, name?: string): ClassType<z.output<S>> {
  return deriveObject(schema, rootName(schema, name), 'object') as ClassType<z.output<S>>;
}

/** The GraphQL input type of a zod object schema; `Input` is appended to the name unless `exactName` (a published name without it). */
export function inputTypeFrom<S extends z.ZodObject>(schema: S, name?: string, options: { exactName?: boolean } = {}): ClassType<z.input<S>> {
  return deriveObject(schema, rootName(schema, name), 'input', options.exactName) as ClassType<z.input<S>>;
}

function rootName(schema: ZodAny, name: string | undefined): string {
  const resolved = name ?? zodId(schema);
  if (!resolved) throw new Error('A derived GraphQL type needs a name: pass one, or give the zod schema an id with .meta({ id })');
  return resolved;
}

const zodId = (schema: ZodAny): string | undefined => z.globalRegistry.get(schema)?.id;
const zodDescription = (schema: ZodAny): string | undefined => z.globalRegistry.get(schema)?.description;
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function deriveObject(schema: ZodAny, baseName: string, kind: Kind, exactName = false): ClassType {
  const def = schema._zod.def as z.core.$ZodObjectDef;
  if (def.type !== 'object') throw new Error(`${baseName}: only zod objects become GraphQL types, not ${def.type}`);
  const name = kind === 'input' && !exactName ? `${baseName}Input` : baseName;
  const fields = Object.entries(def.shape).map(([key, field]) => fieldShape(field, key, baseName, kind));
  const description = zodDescription(schema);
  const signature = JSON.stringify({ description, fields: fields.map(({ type: _type, ...rest }) => rest) });
  const existing = derivedByName.get(name);
  if (existing) {
    if (existing.signature !== signature) {
      throw new Error(`Two different zod shapes both become the GraphQL type ${name}: give one of them another zod id`);
    }
    return existing.type;
  }
  const type = { [name]: class {} }[name]!;
  for (const field of fields) {
    const nullable = field.list ? (field.nullable ? (field.itemsNullable ? 'itemsAndList' : true) : field.itemsNullable ? 'items' : false) : field.nullable;
    Field(() => (field.list ? [field.type] : field.type), { nullable, description: field.description })(type.prototype, field.name);
  }
  if (kind === 'object') {
    Directive('@shareable')(type);
    ObjectType(name, { description })(type);
  } else {
    InputType(name, { description })(type);
  }
  derivedByName.set(name, { signature, type });
  return type;
}

interface Unwrapped {
  schema: ZodAny;
  nullable: boolean;
  notes: string[];
}

/** Strips optional/nullable/default wrappers, noting what they say about the field. */
function unwrap(schema: ZodAny, kind: Kind): Unwrapped {
  let current = schema;
  let nullable = false;
  const notes: string[] = [];
  for (;;) {
    const def = current._zod.def as z.core.$ZodTypeDef & { innerType?: ZodAny; defaultValue?: unknown; in?: ZodAny; out?: ZodAny };
    // An object's own description describes its type, not the field holding it.
    const description = def.type === 'object' ? undefined : zodDescription(current);
    if (description && !notes.includes(description)) notes.push(description);
    switch (def.type) {
      case 'optional':
      case 'nullable':
        nullable = true;
        current = def.innerType!;
        break;
      case 'default':
      case 'prefault':
        nullable = true;
        notes.push(`Default: ${JSON.stringify(def.defaultValue)}.`);
        current = def.innerType!;
        break;
      case 'readonly':
      case 'nonoptional':
        current = def.innerType!;
        break;
      case 'pipe':
        current = kind === 'input' || (def.out!._zod.def.type as string) === 'transform' ? def.in! : def.out!;
        break;
      default:
        return { schema: current, nullable, notes };
    }
  }
}

function fieldShape(schema: ZodAny, key: string, parentName: string, kind: Kind): FieldShape {
  const outer = unwrap(schema, kind);
  let list = false;
  let itemsNullable = false;
  let element = outer;
  if (outer.schema._zod.def.type === 'array') {
    list = true;
    element = unwrap((outer.schema._zod.def as z.core.$ZodArrayDef).element, kind);
    itemsNullable = element.nullable;
  }
  const notes = [...outer.notes, ...element.notes.filter((n) => !outer.notes.includes(n))];
  const elementType = elementTypeOf(element.schema, key, parentName, kind, `${parentName}.${key}`);
  if (elementType.note) notes.push(list ? elementType.note.replace(/^One of/, 'Each one of') : elementType.note);
  return {
    name: key,
    type: elementType.type,
    typeName: elementType.typeName,
    list,
    nullable: outer.nullable,
    itemsNullable,
    description: notes.length ? notes.join(' ') : undefined,
  };
}

function elementTypeOf(schema: ZodAny, key: string, parentName: string, kind: Kind, path: string): { type: Scalar | ClassType; typeName: string; note?: string } {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, any>;
  switch (def.type) {
    case 'string': {
      const note = STRING_FORMATS[def.format as string];
      const scalar = z.globalRegistry.get(schema)?.graphqlType ?? (key === 'id' || key.endsWith('Id') ? 'ID' : 'String');
      return scalar === 'ID' ? { type: ID, typeName: 'ID', note } : { type: String, typeName: 'String', note };
    }
    case 'number':
      return isWholeNumber(schema) ? { type: Int, typeName: 'Int' } : { type: Float, typeName: 'Float' };
    case 'boolean':
      return { type: Boolean, typeName: 'Boolean' };
    case 'enum':
      return { type: String, typeName: 'String', note: `One of ${Object.values(def.entries as Record<string, string>).join(', ')}.` };
    case 'literal': {
      const values = def.values as unknown[];
      const scalar = values.every((v) => typeof v === 'boolean') ? { type: Boolean, typeName: 'Boolean' } : values.every((v) => typeof v === 'string') ? { type: String, typeName: 'String' } : undefined;
      if (!scalar) throw new Error(`${path}: no GraphQL type for a literal of ${values.map((v) => typeof v).join(', ')}`);
      return { ...scalar, note: `Always ${values.map((v) => JSON.stringify(v)).join(' or ')}.` };
    }
    case 'union': {
      const options = (def.options as ZodAny[]).map((option) => elementTypeOf(unwrap(option, kind).schema, key, parentName, kind, path));
      const [first] = options;
      if (!first || options.some((o) => o.type !== first.type) || !SCALAR_NAMES.has(first.typeName)) {
        throw new Error(`${path}: a union becomes a GraphQL field only when all its members are the same scalar`);
      }
      return { type: first.type, typeName: first.typeName };
    }
    case 'object': {
      const type = deriveObject(schema, zodId(schema) ?? `${parentName}${capitalise(key)}`, kind);
      return { type, typeName: (type as unknown as { name: string }).name };
    }
    default:
      throw new Error(`${path}: zod ${def.type} has no GraphQL type; declare the shape, or keep the field JSON in the resolver and document why`);
  }
}

function isWholeNumber(schema: ZodAny): boolean {
  return (schema as unknown as { isInt?: boolean }).isInt === true;
}
