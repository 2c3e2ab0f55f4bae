/**
 * The shape the access model relies on, read from the source: each operation (an exported function
 * taking the ServiceContext, of a module that decides access) makes exactly one access decision,
 * or says in its doc comment why it makes none (`@access <kind>: <reason>`); no domain module calls
 * another's public operation, so access is never decided twice with two rules; and every row of the
 * access table, GraphQL field rows included, is decided by some operation.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './support/source-files.js';
import { ACCESS_POLICY } from '../src/kernel/access-policy.js';

const DOMAIN = path.resolve('src/modules');

const files = sourceFiles(DOMAIN).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
const decidesAccess = (text: string) => /\brequireAccess\(ctx/.test(text);
const publicModules = files.filter((f) => decidesAccess(f.text));
/**
 * The files whose operations are checked: every module file with an exported function taking the
 * ServiceContext, whether or not it decides access anywhere (a module that forgot every decision
 * is the one to catch). Left out: the visibility modules (`<entity>-visibility.ts`, style rule 4a),
 * which hold the rules an operation composes after it decided, and decide nothing themselves.
 */
const isVisibilityModule = (file: string) => file.endsWith('-visibility.ts');
const operationModules = files.filter(
  (f) => !isVisibilityModule(f.file) && (decidesAccess(f.text) || /^export (?:async )?function \w+(?:<[^>]*>)?\(ctx: ServiceContext\b/m.test(f.text)),
);

/** Each exported function's doc comment and body, up to the next top-level declaration. */
function exportedFunctions(text: string): Array<{ name: string; doc: string; body: string }> {
  const starts = [...text.matchAll(/^export (?:async )?function (\w+)/gm)];
  return starts.map((m, i) => {
    const end = text.slice(m.index! + 1).search(/^(?:export |function |async function |const |interface |type |\/\*\*)/m);
    const before = text.slice(0, m.index!);
    const doc = /(\/\*\*(?:(?!\*\/)[^])*\*\/)\s*$/.exec(before)?.[1] ?? '';
    return { name: m[1]!, doc, body: end === -1 ? text.slice(m.index!) : text.slice(m.index!, m.index! + 1 + end) };
  });
}

/**
 * Why an operation decides nothing, as its doc comment declares (`@access <kind>: <reason>`):
 * - internal: takes ids whose visibility a caller established, called after that caller decided;
 * - visibility: answers which entity references entering a subgraph the caller sees, the fields
 *   asked of them deciding their own rows;
 * - signed-link: a page opened by a signed, expiring link, which is the credential;
 * - token-exchange: exchanges the API key or refresh token presented, which is the credential;
 * - worker: a job of the delivery worker, acting for no caller;
 * - decided-by <operation>: the named operation of the same module decides (e.g. an upload's two halves);
 * - public: serves what every caller may have, credential or not (a lender's published logo).
 */
const UNDECIDED_KINDS = ['internal', 'visibility', 'signed-link', 'token-exchange', 'worker', 'decided-by', 'public'] as const;
const ACCESS_TAG = /@access ([\w-]+)(?: (\w+))?: (\S.*)/;

const takesContext = (body: string) => /^export (?:async )?function \w+(?:<[^>]*>)?\(ctx: ServiceContext\b/.test(body);

/** What is wrong with the operations of these module files (each decides once, or declares why not). */
function operationProblems(modules: Array<{ file: string; text: string }>): string[] {
  const offenders: string[] = [];
  for (const { file, text } of modules) {
    const where = path.relative(DOMAIN, file);
    const functions = exportedFunctions(text);
    for (const fn of functions) {
      const decisions = fn.body.match(/\brequireAccess\(/g)?.length ?? 0;
      const tag = ACCESS_TAG.exec(fn.doc);
      if (tag && decisions > 0) offenders.push(`${where}: ${fn.name} declares @access ${tag[1]} but decides access`);
      if (decisions > 1) offenders.push(`${where}: ${fn.name} decides access ${decisions} times`);
      if (decisions === 0 && takesContext(fn.body)) {
        if (!tag) {
          offenders.push(`${where}: ${fn.name} decides no access and does not declare why (@access <kind>: <reason>)`);
          continue;
        }
        const [, kind, decider, reason] = tag;
        if (!(UNDECIDED_KINDS as readonly string[]).includes(kind!)) offenders.push(`${where}: ${fn.name} declares an unknown @access kind ${kind}`);
        if (!reason?.trim()) offenders.push(`${where}: ${fn.name} declares @access ${kind} without a reason`);
        if (kind === 'decided-by' && !functions.some((other) => other.name === decider && /\brequireAccess\(/.test(other.body))) {
          offenders.push(`${where}: ${fn.name} is decided-by ${decider}, which is no operation of this module deciding access`);
        }
      }
    }
    const helpers = [...text.matchAll(/^(?:async )?function (\w+)[^]*?^}/gm)].filter((m) => /\brequireAccess\(/.test(m[0]));
    for (const helper of helpers) offenders.push(`${where}: ${helper[1]} decides access outside a public operation`);
  }
  return offenders;
}

describe('the access model', () => {
  it('has public operations to check', () => {
    expect(publicModules.length).toBeGreaterThan(10);
  });

  it('decides access only in operations, exactly once in each, or declares why an operation decides nothing', () => {
    expect(operationModules.length).toBeGreaterThan(publicModules.length);
    expect(operationProblems(operationModules)).toEqual([]);
  });

  it('catches an operation that decides nothing and says nothing, in a module that decides nowhere', () => {
    const forgetful = {
      file: path.join(DOMAIN, 'example', 'forgetful-service.ts'),
      text: 'export async function readEverything(ctx: ServiceContext, id: string) {\n  return ctx.db.profile.findMany();\n}\n',
    };
    expect(operationModules).toEqual(expect.not.arrayContaining([expect.objectContaining({ file: forgetful.file })]));
    expect(operationProblems([forgetful])).toEqual([
      'example/forgetful-service.ts: readEverything decides no access and does not declare why (@access <kind>: <reason>)',
    ]);
    expect(operationProblems([{ ...forgetful, text: `/** @access internal: the caller decided. */\n${forgetful.text}` }])).toEqual([]);
  });

  it('decides every row of the access table somewhere, the GraphQL field rows included', () => {
    const decided = new Set(files.flatMap((f) => [...f.text.matchAll(/\brequireAccess\(ctx, '([^']+)'/g)].map((m) => m[1]!)));
    expect(Object.keys(ACCESS_POLICY).filter((row) => !decided.has(row))).toEqual([]);
    expect(Object.keys(ACCESS_POLICY).filter((row) => /^[A-Z]\w*\.\w+$/.test(row))).toEqual(
      expect.arrayContaining([
        'Tenant.profile',
        'Profile.documents',
        'Profile.cases',
        'Profile.matches',
        'Profile.applications',
        'Application.matches',
        'Application.preselectedOffers',
      ]),
    );
  });

  it("lets only a module's own adapters call its public operations (other modules use types, constants and internal operations)", () => {
    // A module's adapters are its REST rows and GraphQL resolvers: they call the module's public
    // operations and nothing else does, so an operation never runs inside another's access decision.
    const isAdapter = (file: string) => file.endsWith('.routes.ts') || file.endsWith('-resolver.ts');
    const moduleOf = (file: string) => path.relative(DOMAIN, file).split(path.sep)[0]!;
    const publicByFile = new Map(
      publicModules.map((m) => [
        m.file,
        new Set(
          exportedFunctions(m.text)
            .filter((f) => /\brequireAccess\(/.test(f.body))
            .map((f) => f.name),
        ),
      ]),
    );
    const offenders: string[] = [];
    for (const { file, text } of files) {
      for (const m of text.matchAll(/^import (\* as \w+|\{[^}]*\}) from '(\.[^']+)\.js';/gm)) {
        const target = path.resolve(path.dirname(file), `${m[2]}.ts`);
        const operations = publicByFile.get(target);
        if (!operations || (isAdapter(file) && moduleOf(target) === moduleOf(file))) continue;
        const imported = m[1]!.startsWith('*')
          ? [...operations]
          : m[1]!
              .slice(1, -1)
              .split(',')
              .map((n) => n.trim())
              .filter((n) => n && !n.startsWith('type '));
        for (const name of imported) if (operations.has(name)) offenders.push(`${path.relative(DOMAIN, file)} calls ${moduleOf(target)}'s ${name}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('has no bypass flags', () => {
    const flagged = files.filter((f) => /checked\s*:\s*true|\bchecked\?\s*:/.test(f.text)).map((f) => path.relative(DOMAIN, f.file));
    expect(flagged).toEqual([]);
  });
});
