/**
 * `npm run admin -- <command> [--flags]`: bootstrapping a deployment from a shell, where no
 * credential exists yet to call the API with — the first account and user, lender API credentials,
 * signing key rotation, and loading the company register from a Companies House file. Works in the configured DEPLOY_ENV against DATABASE_URL (or the embedded
 * database in DATA_DIR).
 *
 * Owns argument parsing, validation and presentation only; the work is done by
 * src/modules/identity/bootstrap.ts and src/infra/signing-keys.ts. Results go to stdout as JSON (so
 * they can be piped), notices and logs to stderr. Exit codes: 0 done, 1 failed, 2 bad usage.
 *
 * Printed credentials name the deployment's public URL (a lender's token `audience`, the token
 * endpoint): the running server's when one serves from this DATA_DIR on the same database
 * (running-server.ts), else PUBLIC_URL; with neither, the default (http://localhost:PORT) is used
 * and a notice says so.
 */
import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfig, readEnvFile, type AppConfig } from '../../kernel/config.js';
import type { PlatformRole } from '../../kernel/actor.js';
import { createAccountWithUser, issueLenderCredentials, registerLender, type LenderCredentials } from '../../modules/identity/bootstrap.js';
import { Password } from '../../modules/identity/password-policy.js';
import { newPassword } from '../../modules/identity/secrets.js';
import { openDatabase, type Db } from '../../infra/database.js';
import { isUniqueViolation } from '../../infra/prisma-errors.js';
import { ProductInput, storeLenderProduct } from '../../modules/lenders/lender-management.js';
import { PRODUCT_TYPES } from '../../modules/lenders/product-types.js';
import { rotateSigningKeyFile } from '../../infra/signing-keys.js';
import { CreditFileError, importCreditData } from '../../modules/companies/credit-data-import.js';
import { DEFAULT_IMPORT_BATCH, ImportFileError, importBasicCompanyData, type ImportProgress } from '../../modules/companies/register-import.js';
import { databaseIdentity, runningServerOf, RUNNING_SERVER_FILE } from '../running-server.js';

type Values = Record<string, string | undefined>;

interface Command {
  /** The command's one-line synopsis. */
  usage: string;
  /** Its flags; every one takes a value. */
  flags: readonly string[];
  /** The name of its one positional argument (a file), when it takes one. */
  positional?: string;
  /** It takes one or more of them (read with `positionalList`). */
  manyPositionals?: boolean;
  run(values: Values): Promise<void>;
}

/** Bad input: answered with one line naming the problem and the usage, exit 2. */
class UsageError extends Error {}
/** A valid request that cannot be carried out (duplicate email, unknown lender…): exit 1. */
class CommandError extends Error {}

const PROGRAM = 'npm run admin --';
const ROLES: readonly PlatformRole[] = ['ADMIN', 'MEMBER', 'STAFF'];

/** The product's flags and the field of ProductInput each sets (numbers and booleans parsed from text). */
const PRODUCT_FLAGS: Record<string, { field: string; kind: 'id' | 'text' | 'number' | 'boolean' }> = {
  'lender-id': { field: 'lenderId', kind: 'id' },
  'product-type': { field: 'productType', kind: 'text' },
  name: { field: 'name', kind: 'text' },
  'min-amount': { field: 'minAmount', kind: 'number' },
  'max-amount': { field: 'maxAmount', kind: 'number' },
  'min-term-months': { field: 'minTermMonths', kind: 'number' },
  'max-term-months': { field: 'maxTermMonths', kind: 'number' },
  'annual-rate-min': { field: 'annualRateMin', kind: 'number' },
  'annual-rate-max': { field: 'annualRateMax', kind: 'number' },
  'min-trading-months': { field: 'minTradingMonths', kind: 'number' },
  'min-annual-revenue': { field: 'minAnnualRevenue', kind: 'number' },
  'min-grade': { field: 'minGrade', kind: 'text' },
  'arrangement-fee-pct': { field: 'arrangementFeePct', kind: 'number' },
  'instant-offer': { field: 'instantOffer', kind: 'boolean' },
  active: { field: 'active', kind: 'boolean' },
};

const COMMANDS: Record<string, Command> = {
  'create-user': {
    usage: `${PROGRAM} create-user --email E [--password P] [--account-name N] [--name N] [--role ADMIN|MEMBER|STAFF]`,
    flags: ['email', 'password', 'account-name', 'name', 'role'],
    run: createUser,
  },
  'register-lender': {
    usage: `${PROGRAM} register-lender --name N --application-url URL [--update-url URL]`,
    flags: ['name', 'application-url', 'update-url'],
    run: registerLenderCommand,
  },
  'lender-product': {
    usage:
      `${PROGRAM} lender-product --lender-id ID --product-type ${PRODUCT_TYPES.join('|')} --name N --min-amount £ --max-amount £ ` +
      '--min-term-months M --max-term-months M --annual-rate-min % --annual-rate-max % [--min-trading-months M] [--min-annual-revenue £] ' +
      '[--min-grade A-F] [--arrangement-fee-pct %] [--instant-offer true|false] [--active true|false]',
    flags: Object.keys(PRODUCT_FLAGS),
    run: lenderProduct,
  },
  'lender-credentials': {
    usage: `${PROGRAM} lender-credentials --lender-id ID`,
    flags: ['lender-id'],
    run: lenderCredentials,
  },
  'import-companies': {
    usage: `${PROGRAM} import-companies FILE... [--whole-register true|false] [--batch-size N]   (Companies House Basic Company Data: the CSV or zip, or its parts)`,
    flags: ['batch-size', 'whole-register'],
    positional: 'file',
    manyPositionals: true,
    run: importCompanies,
  },
  'import-credit-data': {
    usage: `${PROGRAM} import-credit-data FILE --source NAME [--batch-size N]   (a credit bureau's delivery file, see docs/operations.md)`,
    flags: ['source', 'batch-size'],
    positional: 'file',
    run: importCreditDataCommand,
  },
  'rotate-signing-key': {
    usage: `${PROGRAM} rotate-signing-key [--file F]`,
    flags: ['file'],
    run: rotateSigningKey,
  },
};

const GENERAL_USAGE = `${PROGRAM} <${Object.keys(COMMANDS).join('|')}> [--flags] (--help for details)`;

// ---------------------------------------------------------------------------------------------
// Commands

async function createUser(values: Values): Promise<void> {
  const email = parseEmail(required(values, 'email'));
  const given = values.password;
  const refused = given === undefined ? undefined : Password.safeParse(given).error;
  if (refused) throw new UsageError(`--password ${refused.issues[0]!.message}`);
  const role = parseRole(values.role ?? 'ADMIN');
  const name = optionalText(values, 'name');
  const accountName = optionalText(values, 'account-name') ?? name ?? email;
  const password = given ?? newPassword();

  const config = configuration();
  const created = await withDatabase(config, async (db) => {
    const existing = await db.platformUser.findUnique({ where: { email }, select: { environment: true } });
    if (existing) throw duplicateEmail(email, existing.environment);
    try {
      return await createAccountWithUser(db, { environment: config.DEPLOY_ENV, accountName, email, password, name, role });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateEmail(email);
      throw err;
    }
  });
  printResult({ ...created, email, role, environment: config.DEPLOY_ENV, ...(given === undefined ? { password } : {}) });
  if (given === undefined) notice('The generated password above is shown once and stored only as a hash: store it now.');
}

async function registerLenderCommand(values: Values): Promise<void> {
  const name = requiredText(values, 'name');
  const applicationUrl = parseHttpUrl(required(values, 'application-url'), 'application-url');
  const updateUrl = values['update-url'] === undefined ? undefined : parseHttpUrl(values['update-url'], 'update-url');

  const config = configuration();
  const publicUrl = await deploymentPublicUrl(config);
  const credentials = await withDatabase(config, (db) =>
    registerLender(db, {
      environment: config.DEPLOY_ENV,
      publicUrl,
      name,
      applicationUrl,
      updateUrl,
      allowPrivateWebhookUrls: config.ALLOW_PRIVATE_WEBHOOK_URLS,
    }),
  );
  printCredentials(credentials, publicUrl);
}

/** Creates the lender's product of that type, or replaces its terms; validated by the schema the GraphQL mutation uses. */
async function lenderProduct(values: Values): Promise<void> {
  const lenderId = parseLenderId(required(values, 'lender-id'));
  const input: Record<string, unknown> = {};
  for (const [flag, { field, kind }] of Object.entries(PRODUCT_FLAGS)) {
    const value = values[flag];
    if (value === undefined || kind === 'id') continue;
    input[field] = kind === 'number' ? parseNumber(value, flag) : kind === 'boolean' ? parseBoolean(value, flag) : value.trim();
  }
  const parsed = ProductInput.safeParse(input);
  if (!parsed.success) {
    const flagOf = (path: PropertyKey[]) => Object.entries(PRODUCT_FLAGS).find(([, f]) => f.field === path[0])?.[0] ?? String(path[0]);
    throw new UsageError(parsed.error.issues.map((issue) => `--${flagOf(issue.path)} ${issue.message}`).join('; '));
  }
  const config = configuration();
  const product = await withDatabase(config, async (db) => {
    const lender = await db.lender.findFirst({ where: { id: lenderId, environment: config.DEPLOY_ENV }, select: { id: true } });
    if (!lender) throw new CommandError(`no lender with id ${lenderId} in the ${config.DEPLOY_ENV} environment`);
    await storeLenderProduct(db, lenderId, parsed.data);
    return db.lenderProduct.findUniqueOrThrow({ where: { lenderId_productType: { lenderId, productType: parsed.data.productType } } });
  });
  printResult({ lenderId, productId: product.id, productType: product.productType, name: product.name, active: product.active });
  notice('A running deployment matches with the product from its next search (the catalogue revision moved).');
}

async function lenderCredentials(values: Values): Promise<void> {
  const lenderId = parseLenderId(required(values, 'lender-id'));

  const config = configuration();
  const publicUrl = await deploymentPublicUrl(config);
  const { credentials, active } = await withDatabase(config, async (db) => {
    const lender = await db.lender.findFirst({ where: { id: lenderId, environment: config.DEPLOY_ENV }, select: { active: true } });
    if (!lender) throw new CommandError(`no lender with id ${lenderId} in the ${config.DEPLOY_ENV} environment`);
    const rotation = { webhookSecretOverlapSeconds: config.WEBHOOK_SECRET_OVERLAP_SECONDS };
    return { credentials: await issueLenderCredentials(db, lenderId, config.DEPLOY_ENV, publicUrl, rotation), active: lender.active };
  });
  printCredentials(credentials, publicUrl);
  notice(
    `Lender ${lenderId}'s previous OAuth credentials and authorization token key stopped working` +
      (credentials.previousWebhookSecretValidUntil
        ? `; deliveries carry signatures with both the previous and the new webhook secret until ${credentials.previousWebhookSecretValidUntil}.`
        : '.'),
  );
  if (!active) notice(`Lender ${lenderId} is inactive: these credentials are refused until it is activated.`);
}

async function rotateSigningKey(values: Values): Promise<void> {
  const file = values.file === undefined ? undefined : requiredText(values, 'file');
  // --file stands in for AUTH_SIGNING_KEYS_FILE, so it also satisfies production's "keys configured" rule.
  if (file !== undefined) readEnvFile();
  const config = configuration(file === undefined ? undefined : { ...process.env, AUTH_SIGNING_KEYS_FILE: file });
  if (config.AUTH_SIGNING_KEYS) {
    throw new CommandError(
      'AUTH_SIGNING_KEYS (an inline key set) is configured, so the keys live in your secret store: rotate them there ' +
        '(new key first, keep the previous one), then restart. Nothing was changed.',
    );
  }
  const target = path.resolve(config.AUTH_SIGNING_KEYS_FILE ?? path.join(config.DATA_DIR, 'signing-keys.json'));
  const fresh = await rotateSigningKeyFile(target);
  const keys = (JSON.parse(await readFile(target, 'utf8')) as { keys: unknown[] }).keys.length;
  printResult({ kid: fresh.kid, file: target, keys });
  const kept = keys > 1 ? '; the previous key is kept so tokens it signed still verify' : '';
  notice(`Key ${fresh.kid} signs for every process (re)started with ${target}${kept}. Restart the deployment to use it.`);
}

/**
 * Loads Basic Company Data into the register (modules/companies/register-import.ts), with progress on
 * stderr. The files are the whole register when named so by Companies House (the one file, or every
 * part `partK_N` of one date) unless --whole-register says otherwise.
 */
async function importCompanies(values: Values): Promise<void> {
  const files = requiredText(values, 'file').split('\0');
  const batchSize = values['batch-size'] === undefined ? DEFAULT_IMPORT_BATCH : parseNumber(values['batch-size'], 'batch-size');
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 50_000) throw new UsageError('--batch-size must be a whole number from 1 to 50000');
  for (const file of files) await readableFile(file);
  const wholeRegister = values['whole-register'] === undefined ? namesWholeRegister(files) : parseBoolean(values['whole-register'], 'whole-register');
  const config = configuration();
  const progress = importProgressLine(process.stderr.isTTY === true);
  const summary = await withDatabase(config, async (db) => {
    try {
      return await importBasicCompanyData(db, files, {
        batchSize,
        wholeRegister,
        onResume: (done) => notice(`Resuming the unfinished import of these files after record ${done}.`),
        onProblem: ({ file, line, message }) => progress.interject(`${file} line ${line}: ${message} (skipped)`),
        onProgress: (p) => progress.show(p),
      });
    } catch (err) {
      if (err instanceof ImportFileError) throw new CommandError(err.message);
      throw err;
    }
  });
  progress.end();
  const { recordsDone: records, inserted, changed, unchanged, dissolved, removed, rejected, resumedAt, elapsedMs } = summary;
  printResult({
    files: summary.files,
    wholeRegister,
    records,
    inserted,
    changed,
    unchanged,
    dissolved,
    removed,
    rejected,
    resumedAt,
    seconds: Math.round(elapsedMs / 100) / 10,
  });
}

/** Companies House's own names: `BasicCompanyDataAsOneFile-<date>` or every `BasicCompanyData-<date>-partK_N`, K = 1..N. */
function namesWholeRegister(files: readonly string[]): boolean {
  const names = files.map((file) => path.basename(file));
  if (names.length === 1 && /^BasicCompanyDataAsOneFile-/i.test(names[0]!)) return true;
  const parts = names.map((name) => /^BasicCompanyData-(\d{4}-\d{2}-\d{2})-part(\d+)_(\d+)\./i.exec(name));
  if (parts.some((part) => !part)) return false;
  const [date, , total] = [parts[0]![1], 0, Number(parts[0]![3])];
  const numbers = new Set(parts.map((part) => (part![1] === date && Number(part![3]) === total ? Number(part![2]) : -1)));
  return numbers.size === total && Array.from({ length: total }, (_, i) => i + 1).every((k) => numbers.has(k));
}

/** Stores a bureau's scores, limits and notices under its name (modules/companies/credit-data-import.ts). */
async function importCreditDataCommand(values: Values): Promise<void> {
  const file = requiredText(values, 'file');
  const source = requiredText(values, 'source');
  if (source.length > 80) throw new UsageError('--source must be at most 80 characters');
  if (source.toLowerCase() === 'demo') throw new UsageError('--source "demo" is the demo seed\'s label; name the bureau');
  const batchSize = values['batch-size'] === undefined ? 2000 : parseNumber(values['batch-size'], 'batch-size');
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 50_000) throw new UsageError('--batch-size must be a whole number from 1 to 50000');
  await readableFile(file);
  const config = configuration();
  const summary = await withDatabase(config, async (db) => {
    try {
      return await importCreditData(db, file, source, { batchSize, onProblem: ({ line, message }) => console.error(`line ${line}: ${message} (skipped)`) });
    } catch (err) {
      if (err instanceof CreditFileError) throw new CommandError(err.message);
      throw err;
    }
  });
  printResult({ file, source, ...summary });
}

async function readableFile(file: string): Promise<void> {
  try {
    await access(file, constants.R_OK);
  } catch {
    throw new UsageError(`${file} cannot be read`);
  }
}

/** One progress line (rows, rows/s, share of the file, ETA): rewritten in place on a terminal, a line every 10 s otherwise. */
function importProgressLine(terminal: boolean) {
  let shown = false;
  let lastLine = 0;
  const clear = () => {
    if (terminal && shown) process.stderr.write('\r\x1b[K');
  };
  return {
    show(p: ImportProgress) {
      if (!terminal && Date.now() - lastLine < 10_000 && !p.done) return;
      lastLine = Date.now();
      const rate = p.elapsedMs > 0 ? (p.recordsThisRun * 1000) / p.elapsedMs : 0;
      const share = p.totalBytes > 0 ? p.bytesRead / p.totalBytes : 1;
      const remaining = share > 0 && share < 1 ? ((p.elapsedMs / share) * (1 - share)) / 1000 : 0;
      const line = `import-companies: ${p.records.toLocaleString('en-GB')} records, ${Math.round(rate).toLocaleString('en-GB')}/s, ${Math.floor(share * 100)}% of the file, ETA ${formatSeconds(remaining)}`;
      clear();
      process.stderr.write(terminal ? line : `${line}\n`);
      shown = true;
    },
    interject(message: string) {
      clear();
      shown = false;
      console.error(message);
    },
    end() {
      if (terminal && shown) process.stderr.write('\n');
    },
  };
}

function formatSeconds(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Validation

function required(values: Values, flag: string): string {
  const value = values[flag];
  if (value === undefined) throw new UsageError(`--${flag} is required`);
  return value;
}

function requiredText(values: Values, flag: string): string {
  const value = required(values, flag).trim();
  if (!value) throw new UsageError(`--${flag} must not be empty`);
  return value;
}

function optionalText(values: Values, flag: string): string | undefined {
  return values[flag] === undefined ? undefined : requiredText(values, flag);
}

function parseEmail(value: string): string {
  const email = value.trim().toLowerCase();
  if (!z.email().max(320).safeParse(email).success) throw new UsageError(`--email must be an email address, not "${value}"`);
  return email;
}

function parseRole(value: string): PlatformRole {
  const role = ROLES.find((r) => r === value.trim().toUpperCase());
  if (!role) throw new UsageError(`--role must be one of ${ROLES.join(', ')}, not "${value}"`);
  return role;
}

function parseHttpUrl(value: string, flag: string): string {
  const text = value.trim();
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new UsageError(`--${flag} must be an http(s) URL, not "${value}"`);
  }
  return text;
}

function parseLenderId(value: string): number {
  const id = /^\d{1,10}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw new UsageError(`--lender-id must be a lender's numeric id, not "${value}"`);
  return id;
}

function parseNumber(value: string, flag: string): number {
  const text = value.trim();
  const number = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(number)) throw new UsageError(`--${flag} must be a number, not "${value}"`);
  return number;
}

function parseBoolean(value: string, flag: string): boolean {
  const text = value.trim().toLowerCase();
  if (text !== 'true' && text !== 'false') throw new UsageError(`--${flag} must be true or false, not "${value}"`);
  return text === 'true';
}

function duplicateEmail(email: string, environment?: string): CommandError {
  return new CommandError(`a user with email ${email} already exists${environment ? ` (${environment} environment)` : ''}; nothing was created`);
}

// ---------------------------------------------------------------------------------------------
// Configuration, database, output

let loadedConfig: AppConfig | undefined;

function configuration(env?: NodeJS.ProcessEnv): AppConfig {
  loadedConfig = loadConfig(env);
  return loadedConfig;
}

/** Logs at info level (to stderr) unless LOG_LEVEL asks for less. */
function log(msg: string, level: 'info' | 'warn' = 'info'): void {
  const configured = loadedConfig?.LOG_LEVEL ?? 'info';
  const shown = level === 'warn' ? ['warn', 'info', 'debug', 'trace'] : ['info', 'debug', 'trace'];
  if (shown.includes(configured)) console.error(msg);
}

/** Shown whatever LOG_LEVEL says: part of the command's answer, not a log. */
function notice(msg: string): void {
  console.error(msg);
}

function printResult(result: object): void {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

function printCredentials(c: LenderCredentials, publicUrl: string): void {
  const { clientId, clientSecret, username, password, webhookSecret, authorizationTokenKey, previousWebhookSecretValidUntil, audience, lenderId, slug } = c;
  const tokenUrl = `${publicUrl}/oauth/token`;
  printResult({
    clientId,
    clientSecret,
    username,
    password,
    audience,
    tokenUrl,
    webhookSecret,
    authorizationTokenKey,
    previousWebhookSecretValidUntil,
    lenderId,
    slug,
  });
  notice('These credentials are shown once (the client secret and password are stored only as hashes): hand them to the lender now.');
}

/**
 * The public URL of the deployment the printed credentials are for: the running server's (same
 * DATA_DIR and database), else PUBLIC_URL, else the default with a notice saying what was assumed.
 */
async function deploymentPublicUrl(config: AppConfig): Promise<string> {
  const configured = process.env.PUBLIC_URL?.trim() ? config.PUBLIC_URL : undefined;
  const running = await runningServerOf(config.DATA_DIR, databaseIdentity(config.DATABASE_URL));
  if (running) {
    if (configured && configured !== running.publicUrl) {
      notice(
        `PUBLIC_URL (${configured}) differs from the running server's (${running.publicUrl}, pid ${running.pid}): the server's is used, as it checks these credentials.`,
      );
    }
    return running.publicUrl;
  }
  if (configured) return configured;
  notice(
    `No running server was found in ${path.resolve(config.DATA_DIR, RUNNING_SERVER_FILE)} and PUBLIC_URL is not set: ` +
      `the credentials below assume the deployment answers at ${config.PUBLIC_URL}. If it does not, run this beside the server ` +
      '(same DATA_DIR and database) or set PUBLIC_URL to its public address, and re-issue them with lender-credentials.',
  );
  return config.PUBLIC_URL;
}

async function withDatabase<T>(config: AppConfig, work: (db: Db) => Promise<T>): Promise<T> {
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    embeddedRole: 'cli',
    poolSize: 1,
    migrate: true,
    log: (msg) => log(msg),
  });
  try {
    return await work(database.prisma);
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Entry

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(
      `usage:\n${Object.values(COMMANDS)
        .map((c) => `  ${c.usage}`)
        .join('\n')}\n`,
    );
    return 0;
  }
  const command = name === undefined ? undefined : COMMANDS[name];
  try {
    if (!command) throw new UsageError(name === undefined ? 'no command given' : `unknown command "${name}"`);
    const { values, help } = parseFlags(command, rest);
    if (help) {
      process.stdout.write(`usage: ${command.usage}\n`);
      return 0;
    }
    await command.run(values);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`admin: ${oneLine(err.message)}; usage: ${command?.usage ?? GENERAL_USAGE}`);
      return 2;
    }
    console.error(`admin: ${err instanceof CommandError ? err.message : err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

function parseFlags(command: Command, args: string[]): { values: Values; help: boolean } {
  const options = Object.fromEntries(command.flags.map((flag) => [flag, { type: 'string' as const }]));
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: command.positional !== undefined,
    });
    const { help, ...flags } = values;
    if (positionals.length > 1 && !command.manyPositionals) throw new UsageError(`one ${command.positional} only`);
    // Every flag but --help is declared as a single string; several positionals travel NUL-separated.
    const given = flags as Values;
    return {
      values: command.positional && positionals[0] !== undefined ? { ...given, [command.positional]: positionals.join('\0') } : given,
      help: help === true,
    };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

process.exitCode = await main(process.argv.slice(2));
