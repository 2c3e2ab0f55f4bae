/**
 * GraphQL object and input types derived from the domain's zod schemas, so a shape declared once
 * (`src/modules/**\/*-schemas.ts`) gives the REST validation, the TypeScript type and the GraphQL type.
 *
 * Mapping: objects → types named by their zod `id` (`.meta({ id })`) or by their parent's name and
 * field, with `Input` appended for input types; arrays → lists; strings → String (ID for a field
 * named `id` or ending in `Id`); whole numbers → Int, other numbers → Float; booleans → Boolean;
 * enums → GraphQL enums in object types (named by their zod id, or by parent and field), String in
 * input types; literals → String, their value in the description; optional, nullable or defaulted
 * fields → nullable.
 *
 * Enums of output fields are GraphQL enums because every writer of those values is held to the same
 * zod enum: REST and GraphQL inputs are parsed with these schemas, the registry's company type,
 * sector and VAT status are PostgreSQL enums of the same values (prisma/schema.prisma), grades come
 * from credit-grade.ts, and questionnaire answers written into a profile are validated by JSON
 * Schemas whose options are subsets of these enums (test/questionnaire-profile-enums.test.ts).
 * Where that does not hold for a field, its type keeps it String (`strings`) and says why. Input
 * fields stay String: the same zod schema checks them, failing with the same JSON pointers as
 * REST, where a GraphQL enum would refuse them earlier with no pointer. An enum whose values are not all GraphQL
 * names (e.g. `funding-search`) stays String, its values in the description. An enum type is
 * registered once per name, so every subgraph deriving it prints the same values (federation
 * requires a value type's enum to be identical wherever it is defined); two different value sets
 * under one name throw.
 *
 * Two ways to keep a name or scalar clients already use: a string field's `.meta({ graphqlType })`
 * ('String' or 'ID') overrides the id naming rule, and `exactName` keeps an input type's name
 * without the `Input` suffix.
 *
 * Object types are `@shareable`: the same value type (e.g. Currency) appears in several subgraphs;
 * an entity (`key`) is `@key(fields: …)` instead, its key fields ID, and must be derived before any
 * type holding it (derivation order is import order; a later request as an entity throws rather
 * than silently keep the value type). A zod type without a GraphQL counterpart (records, unknown,
 * ...) throws, unless the caller names the field (`Type.field`) in `json` with the reason it is
 * free-form JSON.
 */
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Directive, Field, Float, ID, InputType, Int, ObjectType, registerEnumType, type ClassType } from 'type-graphql';
import { z } from 'zod';

declare module 'zod' {
  interface GlobalMeta {
    /** The GraphQL scalar of a string field when the id naming rule would choose the other one. */
    graphqlType?: 'String' | 'ID';
  }
}

type Kind = 'object' | 'input';
type Scalar = StringConstructor | BooleanConstructor | typeof Int | typeof Float | typeof ID | typeof GraphQLJSON | object;
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
  key?: string;
}

/** How a root type is derived: its name, the entity key, and fields (`Type.field`, at any depth) typed otherwise, with why. */
export interface DeriveOptions {
  name?: string;
  /** A federation entity: `@key(fields: key)` rather than `@shareable`, its key fields ID. */
  key?: string;
  /** Fields left free-form JSON (`Type.field` → why): shapes GraphQL cannot express. */
  json?: Record<string, string>;
  /**
   * Fields, at any depth, kept String (`Type.field` → why): an enum whose stored values may lie
   * outside it (a GraphQL enum would refuse to serialise them, failing the whole field), or a field
   * named like an id (`…Id`) that is no id of this graph.
   */
  strings?: Record<string, string>;
  /** An input type keeps `name` as given, without the `Input` suffix (a name clients already use). */
  exactName?: boolean;
}

const derivedByName = new Map<string, Derived>();
const enumsByName = new Map<string, { values: string; type: object }>();
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const SCALAR_NAMES = new Set(['String', 'ID', 'Int', 'Float', 'Boolean']);
const STRING_FORMATS: Record<string, string> = {
  datetime: 'An ISO 8601 date-time.',
  date: 'An ISO 8601 date.',
  email: 'An email address.',
  url: 'A URL.',
  uuid: 'A UUID.',
};

/** The GraphQL object type of a zod object schema (named by `name`, else by the schema's zod id). */
export function objectTypeFrom<S extends z.ZodObject>(schema: S, options?: string | DeriveOptions): ClassType<z.output<S>> {
  const { name, ...rest } = typeof options === 'string' ? { name: options } : (options ?? {});
  return deriveObject(schema, rootName(schema, name), 'object', rest) as ClassType<z.output<S>>;
}

/** The GraphQL input type of a zod object schema; `Input` is appended to the name unless `exactName` (a published name without it). */
export function inputTypeFrom<S extends z.ZodObject>(
  schema: S,
  options?: string | Pick<DeriveOptions, 'name' | 'strings' | 'json' | 'exactName'>,
): ClassType<z.input<S>> {
  const { name, ...rest } = typeof options === 'string' ? { name: options } : (options ?? {});
  return deriveObject(schema, rootName(schema, name), 'input', rest) as ClassType<z.input<S>>;
}

function rootName(schema: ZodAny, name: string | undefined): string {
  const resolved = name ?? zodId(schema);
  if (!resolved) throw new Error('A derived GraphQL type needs a name: pass one, or give the zod schema an id with .meta({ id })');
  return resolved;
}

const zodId = (schema: ZodAny): string | undefined => z.globalRegistry.get(schema)?.id;
const zodDescription = (schema: ZodAny): string | undefined => z.globalRegistry.get(schema)?.description;
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function deriveObject(schema: ZodAny, baseName: string, kind: Kind, options: Omit<DeriveOptions, 'name'> = {}): ClassType {
  const def = schema._zod.def as z.core.$ZodObjectDef;
  if (def.type !== 'object') throw new Error(`${baseName}: only zod objects become GraphQL types, not ${def.type}`);
  const name = kind === 'input' && !options.exactName ? `${baseName}Input` : baseName;
  // A type holding an entity reaches it here without options: it is the entity already derived.
  const entity = derivedByName.get(name);
  if (options.key === undefined && entity?.key !== undefined) return entity.type;
  const entityKey = options.key;
  const keyFields = new Set(entityKey?.split(/\s+/) ?? []);
  const nested = { strings: options.strings, json: options.json };
  const fields = Object.entries(def.shape).map(([key, field]) => {
    const json = options.json?.[`${baseName}.${key}`];
    if (json === undefined) return fieldShape(field, key, baseName, kind, keyFields.has(key), nested);
    const { schema: inner, nullable } = unwrap(field, kind);
    // A record is a JSON object (the JSONObject scalar refuses anything else); any other shape is JSON.
    const scalar = inner._zod.def.type === 'record' ? { type: GraphQLJSONObject, typeName: 'JSONObject' } : { type: GraphQLJSON, typeName: 'JSON' };
    return { name: key, ...scalar, list: false, nullable, itemsNullable: false, description: `Free-form JSON: ${json}` };
  });
  const description = zodDescription(schema);
  const signature = JSON.stringify({ description, fields: fields.map(({ type: _type, ...rest }) => rest) });
  const existing = derivedByName.get(name);
  if (existing) {
    if (existing.signature !== signature) {
      throw new Error(`Two different zod shapes both become the GraphQL type ${name}: give one of them another zod id`);
    }
    if (options.key !== undefined && existing.key !== options.key) {
      throw new Error(`${name} was derived as a value type before being asked for as an entity: derive the entity first`);
    }
    return existing.type;
  }
  const type = { [name]: class {} }[name]!;
  for (const field of fields) {
    const nullable = field.list ? (field.nullable ? (field.itemsNullable ? 'itemsAndList' : true) : field.itemsNullable ? 'items' : false) : field.nullable;
    Field(() => (field.list ? [field.type] : field.type), { nullable, description: field.description })(type.prototype, field.name);
  }
  if (kind === 'object') {
    Directive(entityKey === undefined ? '@shareable' : `@key(fields: "${entityKey}")`)(type);
    ObjectType(name, { description })(type);
  } else {
    InputType(name, { description })(type);
  }
  derivedByName.set(name, { signature, type, key: entityKey });
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

type Overrides = Pick<DeriveOptions, 'strings' | 'json'>;

function fieldShape(schema: ZodAny, key: string, parentName: string, kind: Kind, isKey = false, overrides: Overrides = {}): FieldShape {
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
  const elementType = isKey
    ? { type: ID, typeName: 'ID', note: undefined }
    : elementTypeOf(element.schema, key, parentName, kind, `${parentName}.${key}`, overrides);
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

function elementTypeOf(
  schema: ZodAny,
  key: string,
  parentName: string,
  kind: Kind,
  path: string,
  overrides: Overrides = {},
): { type: Scalar | ClassType; typeName: string; note?: string } {
  const { strings } = overrides;
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, any>;
  switch (def.type) {
    case 'string': {
      const note = STRING_FORMATS[def.format as string];
      if (strings?.[path] !== undefined) return { type: String, typeName: 'String', note: [note, strings[path]].filter(Boolean).join(' ') };
      const scalar = z.globalRegistry.get(schema)?.graphqlType ?? (key === 'id' || key.endsWith('Id') ? 'ID' : 'String');
      return scalar === 'ID' ? { type: ID, typeName: 'ID', note } : { type: String, typeName: 'String', note };
    }
    case 'number':
      return isWholeNumber(schema) ? { type: Int, typeName: 'Int' } : { type: Float, typeName: 'Float' };
    case 'boolean':
      return { type: Boolean, typeName: 'Boolean' };
    case 'enum': {
      const values = Object.values(def.entries as Record<string, string | number>);
      const asString = { type: String, typeName: 'String', note: `One of ${values.join(', ')}.` };
      if (strings?.[path] !== undefined) return { ...asString, note: `${asString.note} ${strings[path]}` };
      if (kind === 'input' || !values.every((v) => typeof v === 'string' && GRAPHQL_NAME.test(v) && !['true', 'false', 'null'].includes(v))) return asString;
      const name = zodId(schema) ?? `${parentName}${capitalise(key)}`;
      return { type: enumType(name, values as string[], zodDescription(schema)), typeName: name };
    }
    case 'literal': {
      const values = def.values as unknown[];
      const scalar = values.every((v) => typeof v === 'boolean')
        ? { type: Boolean, typeName: 'Boolean' }
        : values.every((v) => typeof v === 'string')
          ? { type: String, typeName: 'String' }
          : undefined;
      if (!scalar) throw new Error(`${path}: no GraphQL type for a literal of ${values.map((v) => typeof v).join(', ')}`);
      return { ...scalar, note: `Always ${values.map((v) => JSON.stringify(v)).join(' or ')}.` };
    }
    case 'union': {
      const options = (def.options as ZodAny[]).map((option) => elementTypeOf(unwrap(option, kind).schema, key, parentName, kind, path, overrides));
      const [first] = options;
      if (!first || options.some((o) => o.type !== first.type) || !SCALAR_NAMES.has(first.typeName)) {
        throw new Error(`${path}: a union becomes a GraphQL field only when all its members are the same scalar`);
      }
      return { type: first.type, typeName: first.typeName };
    }
    case 'object': {
      const type = deriveObject(schema, zodId(schema) ?? `${parentName}${capitalise(key)}`, kind, overrides);
      return { type, typeName: (type as unknown as { name: string }).name };
    }
    default:
      throw new Error(`${path}: zod ${def.type} has no GraphQL type; declare the shape, or keep the field JSON in the resolver and document why`);
  }
}

/** The GraphQL enum of these values, registered once under its name. */
function enumType(name: string, values: string[], description: string | undefined): object {
  const signature = JSON.stringify(values);
  const existing = enumsByName.get(name);
  if (existing) {
    if (existing.values !== signature) throw new Error(`Two different zod enums both become the GraphQL enum ${name}: give one of them another zod id`);
    return existing.type;
  }
  const type = Object.fromEntries(values.map((v) => [v, v]));
  registerEnumType(type, { name, description });
  enumsByName.set(name, { values: signature, type });
  return type;
}

function isWholeNumber(schema: ZodAny): boolean {
  return (schema as unknown as { isInt?: boolean }).isInt === true;
}
