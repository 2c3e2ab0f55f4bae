/**
 * deploy/kubernetes/base/*.yaml and the overlays rendered from it (kubectl kustomize), checked without a cluster:
 *  - against the Kubernetes OpenAPI schemas shipped in kubernetes-models (its compiled validator of
 *    each kind: types, enums, required fields, formats), and strictly (as `kubectl apply` with its
 *    default strict field validation): every field must be one the kind's API declares, read from
 *    the same package's type declarations;
 *  - every container runs node on the built file of a package.json script (SERVICE_NAMES of
 *    src/processes/service.ts for start:service) as `args`, under the image's entrypoint (tini);
 *    each service runs in one Deployment of its own name and the migration in one Job;
 *  - every environment key (env, ConfigMap, Secret) is a configuration key of src/kernel/config.ts,
 *    and each container's environment loads with it; secrets only in the Secret;
 *  - probes point at paths the process serves (src/api/http/health.ts, mounted by each server), on
 *    a port the container declares; liveness is HTTP /health everywhere (the gateway's too);
 *  - Services select the pods of existing Deployments, on ports those pods declare; the gateway's
 *    subgraph URLs point at those Services;
 *  - the image is the Dockerfile's (name funding-gateway, tag = package.json version), run as its
 *    non-root user on a read-only root filesystem (writable volumes at /tmp and DATA_DIR), with
 *    requests and limits;
 *  - the gateway, the REST adapter and the subgraphs scale with a HorizontalPodAutoscaler (which
 *    alone sets their replica count), on the CPU their containers request;
 *  - the subgraph secret is held by the gateway and the subgraphs alone, and the NetworkPolicies,
 *    evaluated as Kubernetes does, let only the gateway reach the subgraphs' ports and only the
 *    processes that use the database (not the gateway) reach PostgreSQL.
 * Each check is a function returning its problems, and each is shown to catch a broken file.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { validate as validateConfigMap } from 'kubernetes-models/_schemas/IoK8sApiCoreV1ConfigMap';
import { validate as validateSecret } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Secret';
import { validate as validateService } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Service';
import { validate as validateDeployment } from 'kubernetes-models/_schemas/IoK8sApiAppsV1Deployment';
import { validate as validateJob } from 'kubernetes-models/_schemas/IoK8sApiBatchV1Job';
import { validate as validatePdb } from 'kubernetes-models/_schemas/IoK8sApiPolicyV1PodDisruptionBudget';
import { validate as validateNetworkPolicy } from 'kubernetes-models/_schemas/IoK8sApiNetworkingV1NetworkPolicy';
import { validate as validateHpa } from 'kubernetes-models/_schemas/IoK8sApiAutoscalingV2HorizontalPodAutoscaler';
import { loadConfig } from '../src/kernel/config.js';
import { nodeCommandProblems, readServiceNames, scriptOf, serviceOf as serviceOfCommand } from './support/node-commands.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST_DIR = 'deploy/kubernetes/base';
const OVERLAYS = ['demo', 'production'];
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

// ---------------------------------------------------------------------------------------------
// The manifests and the project facts they must agree with.

type Json = Record<string, unknown>;
interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [key: string]: unknown;
}
interface Probe {
  httpGet?: { path?: string; port?: string | number };
  tcpSocket?: { port?: string | number };
  exec?: unknown;
}
interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
  env?: Array<{ name: string; value?: string; valueFrom?: unknown }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  ports?: Array<{ name?: string; containerPort: number }>;
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Json;
}
interface PodSpec {
  containers: Container[];
  volumes?: Array<{ name: string; emptyDir?: unknown }>;
  securityContext?: Json;
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec: PodSpec;
}

function parseManifests(file: string, text: string): Manifest[] {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return { ...(doc.toJS() as Omit<Manifest, 'file'>), file } as Manifest;
  });
}

/** The base's manifests (its kustomization.yaml is kustomize's, not the cluster's). */
function loadManifests(): Manifest[] {
  const files = readdirSync(join(ROOT, MANIFEST_DIR))
    .filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml')
    .sort();
  return files.flatMap((file) => parseManifests(file, read(`${MANIFEST_DIR}/${file}`)));
}

/** kubectl's kustomize, where the machine has kubectl (the overlays' tests are skipped elsewhere). */
const KUBECTL = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** An overlay as kustomize renders it, each object named by the overlay. */
function renderOverlay(name: string): Manifest[] {
  const text = execFileSync('kubectl', ['kustomize', join(ROOT, 'deploy/kubernetes/overlays', name)], { encoding: 'utf8' });
  return parseManifests(`overlays/${name}`, text);
}

const packageJson = JSON.parse(read('package.json')) as { version: string; scripts: Record<string, string> };

/** The keys of ConfigSchema in src/kernel/config.ts, from its text. */
function readConfigKeys(): string[] {
  const match = /const\s+ConfigSchema\s*=\s*z\.object\(\{([\s\S]*?)\n\}\)/.exec(read('src/kernel/config.ts'));
  if (!match?.[1]) throw new Error('ConfigSchema = z.object({...}) not found in src/kernel/config.ts');
  return [...match[1].matchAll(/^\s*([A-Z][A-Z0-9_]*)\s*:/gm)].map((m) => m[1]!);
}

/** The paths src/api/http/health.ts serves: every `router.get('<path>'` in it. */
function readHealthPaths(): string[] {
  return [...read('src/api/http/health.ts').matchAll(/router\.get\(\s*'([^']+)'/g)].map((m) => m[1]!);
}

/** The servers of src/processes/ that mount healthRouter, by the service names they serve. */
const SERVER_FILES: Record<string, string> = {
  profiles: 'src/processes/subgraph-server.ts',
  matches: 'src/processes/subgraph-server.ts',
  applications: 'src/processes/subgraph-server.ts',
  tenants: 'src/processes/subgraph-server.ts',
  gateway: 'src/processes/remote-gateway-server.ts',
  rest: 'src/processes/rest-server.ts',
  worker: 'src/processes/worker-server.ts',
};

const SERVICE_NAMES = readServiceNames();
const CONFIG_KEYS = readConfigKeys();
const HEALTH_PATHS = readHealthPaths();
/** Keys whose values are credentials: they belong in the Secret, never in a ConfigMap or an env value. */
const SECRET_KEYS = ['DATABASE_URL', 'REDIS_URL', 'AUTH_SIGNING_KEYS', 'METRICS_TOKEN', 'SUBGRAPH_SECRET'];
const IMAGE = `funding-gateway:${packageJson.version}`;
/** What the processes write (the Dockerfile's VOLUMEs): the upload spool (UPLOAD_SPOOL_DIR under the temporary directory) and DATA_DIR. */
const WRITABLE_PATHS = ['/tmp', '/app/.data'];
/** The Dockerfile's `USER node`: uid and gid 1000 in the node images. */
const NODE_UID = 1000;

const byKind = (manifests: Manifest[], kind: string) => manifests.filter((m) => m.kind === kind);
const podTemplateOf = (m: Manifest): PodTemplate | undefined =>
  m.kind === 'Deployment' || m.kind === 'Job' ? ((m.spec as Json).template as PodTemplate) : undefined;
const workloads = (manifests: Manifest[]) => manifests.filter((m) => podTemplateOf(m)).map((m) => ({ manifest: m, pod: podTemplateOf(m)! }));
const where = (m: Manifest, rest = '') => `${m.file} ${m.kind}/${m.metadata?.name}${rest}`;

// ---------------------------------------------------------------------------------------------
// Schema validation: the package's compiled validators, plus unknown fields from its types.

type Validator = ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string; keyword: string; params: unknown }> | null };
const KINDS: Record<string, { validate: Validator; type: string; module: string }> = {
  'v1/ConfigMap': { validate: validateConfigMap, type: 'IConfigMap', module: 'kubernetes-models/v1/ConfigMap' },
  'v1/Secret': { validate: validateSecret, type: 'ISecret', module: 'kubernetes-models/v1/Secret' },
  'v1/Service': { validate: validateService, type: 'IService', module: 'kubernetes-models/v1/Service' },
  'apps/v1/Deployment': { validate: validateDeployment, type: 'IDeployment', module: 'kubernetes-models/apps/v1/Deployment' },
  'batch/v1/Job': { validate: validateJob, type: 'IJob', module: 'kubernetes-models/batch/v1/Job' },
  'policy/v1/PodDisruptionBudget': { validate: validatePdb, type: 'IPodDisruptionBudget', module: 'kubernetes-models/policy/v1/PodDisruptionBudget' },
  'networking.k8s.io/v1/NetworkPolicy': {
    validate: validateNetworkPolicy,
    type: 'INetworkPolicy',
    module: 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy',
  },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    validate: validateHpa,
    type: 'IHorizontalPodAutoscaler',
    module: 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler',
  },
};

/**
 * The declared type of each kind, from kubernetes-models' .d.ts files (generated from the same
 * OpenAPI document as its validators), through the TypeScript checker: a virtual module that
 * imports them all.
 */
function kindTypes(): { checker: ts.TypeChecker; types: Record<string, ts.Type> } {
  const virtual = join(ROOT, 'test', '__kubernetes_kinds__.ts');
  const text =
    Object.entries(KINDS)
      .map(([, k], i) => `import type { ${k.type} as K${i} } from '${k.module}';`)
      .join('\n') +
    '\n' +
    Object.keys(KINDS)
      .map((_, i) => `export declare const k${i}: K${i};`)
      .join('\n');
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => (name === virtual ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === virtual || fileExists(name);
  const program = ts.createProgram([virtual], options, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(virtual)!;
  const unresolved = ts.getPreEmitDiagnostics(program, source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (unresolved.length > 0) throw new Error(`kubernetes-models types: ${unresolved.join('; ')}`);
  const declarations = source.statements.filter(ts.isVariableStatement).map((s) => s.declarationList.declarations[0]!);
  return { checker, types: Object.fromEntries(Object.keys(KINDS).map((key, i) => [key, checker.getTypeAtLocation(declarations[i]!)])) };
}

const { checker, types: KIND_TYPES } = kindTypes();

/** Fields of `value` that its declared type does not have (maps such as labels have an index signature). */
function unknownFields(value: unknown, type: ts.Type, path: string): string[] {
  if (value === null || typeof value !== 'object') return [];
  const objects = (type.isUnion() ? type.types : [type]).filter((t) => (t.flags & ts.TypeFlags.Object) !== 0);
  if (objects.length === 0) return []; // any, unknown, or a scalar where an object stands: the validator's part
  if (Array.isArray(value)) {
    const element = checker.getIndexTypeOfType(objects[0]!, ts.IndexKind.Number);
    return element ? value.flatMap((item, i) => unknownFields(item, element, `${path}[${i}]`)) : [];
  }
  const declared = objects[0]!;
  const index = checker.getIndexTypeOfType(declared, ts.IndexKind.String);
  return Object.entries(value).flatMap(([key, field]) => {
    const property = checker.getPropertyOfType(declared, key);
    if (property) return unknownFields(field, checker.getNonNullableType(checker.getTypeOfSymbol(property)), `${path}.${key}`);
    if (index) return unknownFields(field, index, `${path}.${key}`);
    return [`${path}.${key}: unknown field`];
  });
}

function schemaProblems(manifests: Manifest[]): string[] {
  return manifests.flatMap((m) => {
    const key = `${m.apiVersion}/${m.kind}`;
    const kind = KINDS[key];
    if (!kind) return [`${where(m)}: ${key} is not a kind these manifests use (add its validator)`];
    const { file: _file, ...object } = m;
    const problems = kind.validate(object)
      ? []
      : (kind.validate.errors ?? []).map((e) => `${where(m)}${e.instancePath} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);
    return [...problems, ...unknownFields(object, KIND_TYPES[key]!, where(m))];
  });
}

// ---------------------------------------------------------------------------------------------
// Project checks: each returns its problems.

const serviceOf = (container: Container) => serviceOfCommand(container.args);
const runsMigrations = (container: Container) => scriptOf(container.args) === 'db:migrate';

function workloadCommandProblems(manifests: Manifest[]): string[] {
  const problems = workloads(manifests).flatMap(({ manifest, pod }) =>
    pod.spec.containers.flatMap((c) => [
      ...nodeCommandProblems(where(manifest, ` container ${c.name}`), c.args, SERVICE_NAMES),
      // `command` replaces the image's ENTRYPOINT: node would be PID 1 with no init to reap its children.
      ...(c.command
        ? [`${where(manifest, ` container ${c.name}`)}: command ${JSON.stringify(c.command)} replaces the image's entrypoint (tini): give args`]
        : []),
    ]),
  );
  for (const service of SERVICE_NAMES) {
    const runners = byKind(manifests, 'Deployment').filter((d) => podTemplateOf(d)!.spec.containers.some((c) => serviceOf(c) === service));
    if (runners.length !== 1) problems.push(`${service} runs in ${runners.length} Deployments`);
    else if (runners[0]!.metadata.name !== service) problems.push(`${service} runs in Deployment "${runners[0]!.metadata.name}"`);
  }
  const migrations = byKind(manifests, 'Job').filter((j) => podTemplateOf(j)!.spec.containers.some(runsMigrations));
  if (migrations.length !== 1) problems.push(`db:migrate runs in ${migrations.length} Jobs`);
  for (const d of byKind(manifests, 'Deployment')) {
    if (podTemplateOf(d)!.spec.containers.some(runsMigrations)) problems.push(`${where(d)}: migrations run in a Job, not in every replica`);
  }
  return problems;
}

const dataOf = (m: Manifest): Record<string, string> => ({
  ...((m.data as Record<string, string>) ?? {}),
  ...((m.stringData as Record<string, string>) ?? {}),
});

/** Each container's environment as the kubelet builds it: envFrom sources in order, then env. */
function environmentOf(manifests: Manifest[], c: Container): { env: Record<string, string>; missing: string[] } {
  const env: Record<string, string> = {};
  const missing: string[] = [];
  for (const from of c.envFrom ?? []) {
    const ref = from.configMapRef
      ? { kind: 'ConfigMap', name: from.configMapRef.name }
      : from.secretRef
        ? { kind: 'Secret', name: from.secretRef.name }
        : undefined;
    const source = ref && manifests.find((m) => m.kind === ref.kind && m.metadata.name === ref.name);
    if (!source) missing.push(`${ref?.kind ?? 'envFrom'} ${ref?.name ?? '?'}`);
    else
      Object.assign(
        env,
        ref.kind === 'Secret' && source.data
          ? Object.fromEntries(Object.entries(source.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]))
          : {},
        dataOf(source),
      );
  }
  for (const variable of c.env ?? []) env[variable.name] = variable.value ?? '';
  return { env, missing };
}

function environmentProblems(manifests: Manifest[]): string[] {
  const known = new Set([...CONFIG_KEYS, 'NODE_ENV']);
  const problems: string[] = [];
  for (const m of [...byKind(manifests, 'ConfigMap'), ...byKind(manifests, 'Secret')]) {
    for (const key of Object.keys(dataOf(m))) {
      if (!known.has(key)) problems.push(`${where(m)}: ${key} is not a key of src/kernel/config.ts`);
      if (m.kind === 'ConfigMap' && SECRET_KEYS.includes(key)) problems.push(`${where(m)}: ${key} is a secret: put it in the Secret`);
    }
  }
  for (const { manifest, pod } of workloads(manifests)) {
    for (const c of pod.spec.containers) {
      for (const variable of c.env ?? []) {
        if (!known.has(variable.name)) problems.push(`${where(manifest, ` container ${c.name}`)}: env ${variable.name} is not a key of src/kernel/config.ts`);
        if (SECRET_KEYS.includes(variable.name) && variable.value !== undefined)
          problems.push(`${where(manifest, ` container ${c.name}`)}: env ${variable.name} is a secret: take it from the Secret`);
      }
      const { env, missing } = environmentOf(manifests, c);
      problems.push(...missing.map((s) => `${where(manifest, ` container ${c.name}`)}: envFrom ${s} is not in ${MANIFEST_DIR}`));
      try {
        loadConfig(env);
      } catch (err) {
        problems.push(`${where(manifest, ` container ${c.name}`)}: configuration does not load: ${(err as Error).message}`);
      }
    }
  }
  return problems;
}

const portNumber = (c: Container, port: string | number | undefined) =>
  typeof port === 'number' ? port : c.ports?.find((p) => p.name === port)?.containerPort;

function probeProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  for (const d of byKind(manifests, 'Deployment')) {
    for (const c of podTemplateOf(d)!.spec.containers) {
      const at = where(d, ` container ${c.name}`);
      const service = serviceOf(c);
      const serverFile = service ? SERVER_FILES[service] : undefined;
      const mountsHealth = serverFile !== undefined && /healthRouter\(/.test(read(serverFile));
      const { env } = environmentOf(manifests, c);
      const listening = Number(env.PORT ?? 4000);
      for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
        const probe = c[kind];
        if (!probe) {
          problems.push(`${at}: no ${kind}`);
          continue;
        }
        const port = portNumber(c, probe.httpGet?.port ?? probe.tcpSocket?.port);
        if (port === undefined)
          problems.push(`${at}: ${kind} port ${String(probe.httpGet?.port ?? probe.tcpSocket?.port)} is not a port the container declares`);
        else if (port !== listening) problems.push(`${at}: ${kind} on port ${port}, but the process listens on PORT=${listening}`);
        if (probe.httpGet) {
          if (!HEALTH_PATHS.includes(probe.httpGet.path ?? '/'))
            problems.push(`${at}: ${kind} path ${probe.httpGet.path} is not served (health.ts serves ${HEALTH_PATHS.join(', ')})`);
          if (!mountsHealth) problems.push(`${at}: ${kind} asks HTTP, but ${serverFile ?? 'its process'} mounts no healthRouter`);
        }
      }
      if (c.readinessProbe?.httpGet?.path !== '/health/ready') problems.push(`${at}: readinessProbe must ask /health/ready (dependencies)`);
      if (c.livenessProbe?.httpGet && c.livenessProbe.httpGet.path !== '/health')
        problems.push(`${at}: livenessProbe asks ${c.livenessProbe.httpGet.path}, not /health`);
      // The kernel accepts a TCP connection while the process's event loop is stuck.
      if (c.livenessProbe && !c.livenessProbe.httpGet) problems.push(`${at}: livenessProbe must ask /health over HTTP`);
    }
  }
  return problems;
}

const selects = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

function serviceProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const deployments = byKind(manifests, 'Deployment');
  for (const s of byKind(manifests, 'Service')) {
    const spec = s.spec as { selector?: Record<string, string>; ports?: Array<{ port: number; targetPort?: string | number }> };
    const targets = deployments.filter((d) => selects(spec.selector ?? {}, podTemplateOf(d)!.metadata?.labels));
    if (targets.length !== 1) {
      problems.push(`${where(s)}: selects the pods of ${targets.length} Deployments`);
      continue;
    }
    const container = podTemplateOf(targets[0]!)!.spec.containers[0]!;
    for (const port of spec.ports ?? []) {
      if (portNumber(container, port.targetPort ?? port.port) === undefined)
        problems.push(`${where(s)}: targetPort ${String(port.targetPort)} is not a port of ${targets[0]!.metadata.name}`);
    }
  }
  for (const d of deployments) {
    const spec = d.spec as { selector: { matchLabels?: Record<string, string> } };
    if (!selects(spec.selector.matchLabels ?? {}, podTemplateOf(d)!.metadata?.labels))
      problems.push(`${where(d)}: its selector does not match its pod template`);
  }
  for (const b of byKind(manifests, 'PodDisruptionBudget')) {
    const selector = (b.spec as { selector: { matchLabels?: Record<string, string> } }).selector.matchLabels ?? {};
    if (deployments.filter((d) => selects(selector, podTemplateOf(d)!.metadata?.labels)).length !== 1)
      problems.push(`${where(b)}: selects no single Deployment`);
  }
  // The gateway's subgraph URLs (in its environment) name those subgraphs' Services and ports.
  const gateway = deployments.find((d) => d.metadata.name === 'gateway');
  const rest = deployments.find((d) => d.metadata.name === 'rest');
  const urls = [
    ...(gateway
      ? Object.entries(environmentOf(manifests, podTemplateOf(gateway)!.spec.containers[0]!).env)
          .filter(([k]) => /^(PROFILES|MATCHES|APPLICATIONS|TENANTS)_URL$/.test(k))
          .map(([k, v]) => [k, v, k.slice(0, -4).toLowerCase()] as const)
      : []),
    ...(rest
      ? [['GRAPHQL_GATEWAY_URL', environmentOf(manifests, podTemplateOf(rest)!.spec.containers[0]!).env.GRAPHQL_GATEWAY_URL ?? '', 'gateway'] as const]
      : []),
  ];
  if (urls.length !== 5) problems.push(`gateway/rest: ${5 - urls.length} of the service URLs are unset`);
  for (const [key, value, serviceName] of urls) {
    const url = new URL(value);
    const service = byKind(manifests, 'Service').find((s) => s.metadata.name === url.hostname);
    if (!service) {
      problems.push(`${key}: host ${url.hostname} is not a Service`);
      continue;
    }
    const target = deployments.find((d) => selects((service.spec as { selector: Record<string, string> }).selector, podTemplateOf(d)!.metadata?.labels));
    if (target?.metadata.name !== serviceName) problems.push(`${key}: Service ${url.hostname} does not select the ${serviceName} pods`);
    if (!(service.spec as { ports: Array<{ port: number }> }).ports.some((p) => String(p.port) === url.port))
      problems.push(`${key}: Service ${url.hostname} has no port ${url.port}`);
    if (url.pathname !== '/graphql') problems.push(`${key}: path ${url.pathname}, not /graphql`);
  }
  return problems;
}

function podProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  for (const { manifest, pod } of workloads(manifests)) {
    const podSecurity = pod.spec.securityContext ?? {};
    for (const c of pod.spec.containers) {
      const at = where(manifest, ` container ${c.name}`);
      if (c.image !== IMAGE) problems.push(`${at}: image ${c.image}, not the Dockerfile's ${IMAGE}`);
      const security = { ...podSecurity, ...(c.securityContext ?? {}) };
      if (security.runAsNonRoot !== true) problems.push(`${at}: runAsNonRoot is not true`);
      if (security.runAsUser !== NODE_UID) problems.push(`${at}: runAsUser ${String(security.runAsUser)}, not the image's node user (${NODE_UID})`);
      if (security.allowPrivilegeEscalation !== false) problems.push(`${at}: allowPrivilegeEscalation is not false`);
      if (!((security.capabilities as { drop?: string[] } | undefined)?.drop ?? []).includes('ALL')) problems.push(`${at}: capabilities are not dropped`);
      for (const resource of ['cpu', 'memory']) {
        if (!c.resources?.requests?.[resource]) problems.push(`${at}: no ${resource} request`);
      }
      if (!c.resources?.limits?.memory) problems.push(`${at}: no memory limit`);
      if (security.readOnlyRootFilesystem !== true) problems.push(`${at}: readOnlyRootFilesystem is not true`);
      for (const path of WRITABLE_PATHS) {
        const mount = c.volumeMounts?.find((m) => m.mountPath === path);
        if (!mount || mount.readOnly) problems.push(`${at}: no writable volume at ${path}`);
        else if (!pod.spec.volumes?.some((v) => v.name === mount.name)) problems.push(`${at}: its mount at ${path} names no volume of the pod (${mount.name})`);
      }
    }
  }
  return problems;
}

/** The request-serving Deployments, each scaled by a HorizontalPodAutoscaler of its own. */
const AUTOSCALED = ['gateway', 'rest', 'profiles', 'matches', 'applications', 'tenants'];

function autoscalingProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const hpas = byKind(manifests, 'HorizontalPodAutoscaler');
  for (const name of AUTOSCALED) {
    const mine = hpas.filter((h) => (h.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name === name);
    if (mine.length !== 1) problems.push(`${name}: ${mine.length} HorizontalPodAutoscalers`);
  }
  for (const h of hpas) {
    const spec = h.spec as {
      scaleTargetRef: { apiVersion: string; kind: string; name: string };
      minReplicas?: number;
      maxReplicas: number;
      metrics?: Array<{ type: string; resource?: { name: string } }>;
    };
    const target = byKind(manifests, 'Deployment').find((d) => d.metadata.name === spec.scaleTargetRef.name);
    if (!target || spec.scaleTargetRef.kind !== 'Deployment' || spec.scaleTargetRef.apiVersion !== 'apps/v1') {
      problems.push(`${where(h)}: scales ${spec.scaleTargetRef.kind}/${spec.scaleTargetRef.name}, not a Deployment here`);
      continue;
    }
    if ((spec.minReplicas ?? 1) > spec.maxReplicas) problems.push(`${where(h)}: minReplicas above maxReplicas`);
    // Utilisation is measured against the request: a container without one is never scaled.
    for (const metric of spec.metrics ?? []) {
      const resource = metric.resource?.name;
      if (metric.type === 'Resource' && resource && podTemplateOf(target)!.spec.containers.some((c) => !c.resources?.requests?.[resource]))
        problems.push(`${where(h)}: ${target.metadata.name} requests no ${resource}`);
    }
    if ((target.spec as { replicas?: number }).replicas !== undefined)
      problems.push(`${where(target)}: sets replicas, which each apply would reset under its HorizontalPodAutoscaler`);
  }
  return problems;
}

/** The fewest replicas a Deployment runs: its autoscaler's minimum, else its replicas. */
function fewestReplicas(manifests: Manifest[], d: Manifest): number {
  const hpa = byKind(manifests, 'HorizontalPodAutoscaler').find(
    (h) => (h.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name === d.metadata.name,
  );
  return hpa ? ((hpa.spec as { minReplicas?: number }).minReplicas ?? 1) : ((d.spec as { replicas?: number }).replicas ?? 1);
}

// ---------------------------------------------------------------------------------------------
// The subgraph secret and the NetworkPolicies.

const SUBGRAPHS = ['profiles', 'matches', 'applications', 'tenants'];
/** The labels the database policy expects on PostgreSQL's pods (network-policies.yaml says so). */
const DATABASE_POD_LABELS = { 'app.kubernetes.io/name': 'postgresql' };
const DATABASE_PORT = 5432;

/** Only the gateway and the subgraphs hold SUBGRAPH_SECRET, and they hold the same. */
function subgraphSecretProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const values = new Set<string>();
  for (const { manifest, pod } of workloads(manifests)) {
    const secret = environmentOf(manifests, pod.spec.containers[0]!).env.SUBGRAPH_SECRET;
    const holder = manifest.kind === 'Deployment' && [...SUBGRAPHS, 'gateway'].includes(manifest.metadata.name);
    if (holder && !secret) problems.push(`${where(manifest)}: no SUBGRAPH_SECRET`);
    if (!holder && secret !== undefined) problems.push(`${where(manifest)}: holds SUBGRAPH_SECRET, which only the gateway and the subgraphs need`);
    if (holder && secret) values.add(secret);
  }
  if (values.size > 1) problems.push('the gateway and the subgraphs hold different SUBGRAPH_SECRET values');
  return problems;
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}
interface PolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string };
}
interface PolicyRule {
  from?: PolicyPeer[];
  to?: PolicyPeer[];
  ports?: Array<{ port?: number | string; protocol?: string }>;
}
interface PolicySpec {
  podSelector: LabelSelector;
  policyTypes?: Array<'Ingress' | 'Egress'>;
  ingress?: PolicyRule[];
  egress?: PolicyRule[];
}
/** A party to a connection: a pod of this namespace (its labels and ports), or anything else (another namespace, outside the cluster). */
type Party = { labels: Record<string, string>; container?: Container } | 'elsewhere';

function selectorMatches(selector: LabelSelector, labels: Record<string, string>): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  return (
    byLabels &&
    (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) =>
      operator === 'In'
        ? values.includes(labels[key] ?? '\u0000')
        : operator === 'NotIn'
          ? !values.includes(labels[key] ?? '\u0000')
          : operator === 'Exists'
            ? key in labels
            : !(key in labels),
    )
  );
}

/** A policy's peer list admits the party: a pod selector alone means this namespace; an empty namespace selector any namespace; an ipBlock anything outside. */
function peersAdmit(peers: PolicyPeer[] | undefined, party: Party): boolean {
  if (!peers || peers.length === 0) return true;
  return peers.some((peer) => {
    if (peer.ipBlock) return party === 'elsewhere';
    if (peer.namespaceSelector) {
      const anyNamespace = Object.keys(peer.namespaceSelector.matchLabels ?? {}).length === 0 && (peer.namespaceSelector.matchExpressions ?? []).length === 0;
      if (party === 'elsewhere') return anyNamespace && !peer.podSelector;
      return anyNamespace && selectorMatches(peer.podSelector ?? {}, party.labels);
    }
    return party !== 'elsewhere' && selectorMatches(peer.podSelector ?? {}, party.labels);
  });
}

/** A rule's ports admit the port (a named port is the destination container's port of that name). */
function portsAdmit(ports: PolicyRule['ports'], port: number, destination: Party): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some(
    (p) =>
      p.port === undefined ||
      (typeof p.port === 'number'
        ? p.port === port
        : destination !== 'elsewhere' && destination.container !== undefined && portNumber(destination.container, p.port) === port),
  );
}

const policiesOf = (manifests: Manifest[], type: 'Ingress' | 'Egress', pod: Party) =>
  pod === 'elsewhere'
    ? []
    : byKind(manifests, 'NetworkPolicy')
        .map((m) => m.spec as PolicySpec)
        .filter((spec) => (spec.policyTypes ?? ['Ingress']).includes(type) && selectorMatches(spec.podSelector, pod.labels));

/** Whether Kubernetes lets `source` open a connection to `destination` on `port`: both ends' policies must allow it. */
function reaches(manifests: Manifest[], source: Party, destination: Party, port: number): boolean {
  const egress = policiesOf(manifests, 'Egress', source);
  const ingress = policiesOf(manifests, 'Ingress', destination);
  const leaves =
    egress.length === 0 ||
    egress.some((spec) => (spec.egress ?? []).some((rule) => portsAdmit(rule.ports, port, destination) && peersAdmit(rule.to, destination)));
  const enters =
    ingress.length === 0 ||
    ingress.some((spec) => (spec.ingress ?? []).some((rule) => portsAdmit(rule.ports, port, destination) && peersAdmit(rule.from, source)));
  return leaves && enters;
}

function networkProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const pods = workloads(manifests).map(({ manifest, pod }) => ({
    name: manifest.metadata.name,
    party: { labels: pod.metadata?.labels ?? {}, container: pod.spec.containers[0]! },
  }));
  const callers: Array<{ name: string; party: Party }> = [
    ...pods,
    { name: 'another pod of the namespace', party: { labels: { app: 'other' } } },
    { name: 'a pod elsewhere', party: 'elsewhere' },
  ];
  for (const subgraph of pods.filter((p) => SUBGRAPHS.includes(p.name))) {
    const port = portNumber(subgraph.party.container, 'http')!;
    for (const caller of callers) {
      const allowed = reaches(manifests, caller.party, subgraph.party, port);
      if (allowed !== (caller.name === 'gateway')) problems.push(`${caller.name} ${allowed ? 'reaches' : 'does not reach'} ${subgraph.name} on port ${port}`);
    }
  }
  const database: Party = { labels: DATABASE_POD_LABELS };
  if (policiesOf(manifests, 'Ingress', database).length === 0) problems.push('no policy selects the PostgreSQL pods');
  for (const caller of callers) {
    // The gateway holds no data; every other process of the deployment uses the database.
    const needs = pods.some((p) => p.name === caller.name) && caller.name !== 'gateway';
    const allowed = reaches(manifests, caller.party, database, DATABASE_PORT);
    if (allowed !== needs) problems.push(`${caller.name} ${allowed ? 'reaches' : 'does not reach'} PostgreSQL`);
  }
  const gateway = pods.find((p) => p.name === 'gateway');
  if (gateway && reaches(manifests, gateway.party, 'elsewhere', DATABASE_PORT))
    problems.push('gateway reaches port 5432 outside the namespace (a PostgreSQL outside the cluster)');
  return problems;
}

const clone = <T>(value: T): T => structuredClone(value);
const find = (manifests: Manifest[], kind: string, name: string) => manifests.find((m) => m.kind === kind && m.metadata.name === name)!;
const containerOf = (manifests: Manifest[], kind: string, name: string) => podTemplateOf(find(manifests, kind, name))!.spec.containers[0]!;

// ---------------------------------------------------------------------------------------------

describe('deploy/kubernetes', () => {
  it('reads the facts it checks against', () => {
    expect(SERVICE_NAMES).toEqual(expect.arrayContaining(['profiles', 'matches', 'applications', 'tenants', 'gateway', 'rest', 'worker']));
    expect(Object.keys(SERVER_FILES).sort()).toEqual([...SERVICE_NAMES].sort());
    expect(HEALTH_PATHS.sort()).toEqual(['/health', '/health/ready']);
    expect(CONFIG_KEYS).toEqual(expect.arrayContaining([...SECRET_KEYS, 'PORT', 'DEPLOY_ENV']));
    expect(read('Dockerfile')).toMatch(/^USER node$/m);
    const manifests = loadManifests();
    expect(
      byKind(manifests, 'Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual([...SERVICE_NAMES].sort());
    expect(
      byKind(manifests, 'Service')
        .map((s) => s.metadata.name)
        .sort(),
    ).toEqual(['applications', 'gateway', 'matches', 'profiles', 'rest', 'tenants']);
    for (const d of byKind(manifests, 'Deployment')) expect(fewestReplicas(manifests, d), d.metadata.name).toBeGreaterThanOrEqual(2);
    expect(read('Dockerfile')).toMatch(/^VOLUME \["\/app\/\.data", "\/tmp"\]$/m);
  });

  describe('Kubernetes schemas (kubernetes-models)', () => {
    it('are valid, with no field the API does not declare', () => {
      expect(schemaProblems(loadManifests())).toEqual([]);
    });

    it('catch a wrong type, a missing required field and a bad enum value', () => {
      const manifests = loadManifests();
      containerOf(manifests, 'Deployment', 'rest').ports![0]!.containerPort = 'http' as unknown as number;
      delete (find(manifests, 'Deployment', 'worker').spec as Json).selector;
      (find(manifests, 'Service', 'gateway').spec as Json).type = 'Public';
      const problems = schemaProblems(manifests).join('\n');
      expect(problems).toContain('rest.yaml Deployment/rest/spec/template/spec/containers/0/ports/0/containerPort type {"type":"integer"}');
      expect(problems).toContain('worker.yaml Deployment/worker/spec required {"missingProperty":"selector"}');
      expect(problems).toMatch(/gateway\.yaml Service\/gateway\/spec\/type enum \{"allowedValues":\[.*"ClusterIP"/);
    });

    it('catch fields the API does not declare, at any depth, and an unknown kind', () => {
      const manifests = loadManifests();
      (find(manifests, 'Deployment', 'gateway').spec as Json).replica = 3;
      (containerOf(manifests, 'Deployment', 'rest').readinessProbe as Json).httpget = { path: '/health/ready' };
      (containerOf(manifests, 'Job', 'funding-gateway-migrate').resources!.requests as Json).cpu = '1'; // a map: any key
      manifests.push({ file: 'extra.yaml', apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'x' } });
      expect(schemaProblems(manifests)).toEqual([
        'gateway.yaml Deployment/gateway.spec.replica: unknown field',
        'rest.yaml Deployment/rest.spec.template.spec.containers[0].readinessProbe.httpget: unknown field',
        'extra.yaml Deploymnet/x: apps/v1/Deploymnet is not a kind these manifests use (add its validator)',
      ]);
    });
  });

  describe('commands', () => {
    it('run package.json scripts; each service in one Deployment of its name, migrations in one Job', () => {
      expect(workloadCommandProblems(loadManifests())).toEqual([]);
    });

    it('catch an unknown service, a missing command, npm, an overridden entrypoint and migrations in a Deployment', () => {
      const manifests = loadManifests();
      containerOf(manifests, 'Deployment', 'gateway').args = ['node', 'dist/server/src/processes/service.js', 'gatway'];
      delete containerOf(manifests, 'Deployment', 'worker').args;
      containerOf(manifests, 'Deployment', 'rest').args = ['node', 'dist/server/src/processes/cli/migrate.js'];
      containerOf(manifests, 'Deployment', 'profiles').args = ['npm', 'run', 'start:service', '--', 'profiles'];
      containerOf(manifests, 'Deployment', 'tenants').command = ['node', 'dist/server/src/processes/service.js', 'tenants'];
      expect(workloadCommandProblems(manifests)).toEqual(
        expect.arrayContaining([
          expect.stringContaining('no service "gatway"'),
          expect.stringContaining('Deployment/worker container worker: no command'),
          expect.stringMatching(/Deployment\/profiles container profiles: .* does not run node itself/),
          expect.stringContaining(
            'Deployment/tenants container tenants: command ["node","dist/server/src/processes/service.js","tenants"] replaces the image\'s entrypoint (tini)',
          ),
          'profiles runs in 0 Deployments',
          'gateway runs in 0 Deployments',
          'rest runs in 0 Deployments',
          'worker runs in 0 Deployments',
          'rest.yaml Deployment/rest: migrations run in a Job, not in every replica',
        ]),
      );
    });
  });

  describe('environment', () => {
    it('only configuration keys, secrets only in the Secret, and every container loads its configuration', () => {
      expect(environmentProblems(loadManifests())).toEqual([]);
    });

    it('is production, with the database and Redis from the Secret for every process', () => {
      const manifests = loadManifests();
      for (const { manifest, pod } of workloads(manifests)) {
        const { env } = environmentOf(manifests, pod.spec.containers[0]!);
        const config = loadConfig(env);
        expect(config.DEPLOY_ENV, manifest.metadata.name).toBe('production');
        expect(config.DATABASE_URL, manifest.metadata.name).toMatch(/^postgres(ql)?:\/\//);
        expect(config.REDIS_URL, manifest.metadata.name).toMatch(/^rediss?:\/\//);
        expect(config.HOST, manifest.metadata.name).toBe('0.0.0.0');
      }
    });

    it('catch an unknown key, a secret in the ConfigMap, a missing source and a value that does not load', () => {
      const manifests = loadManifests();
      const configMap = find(manifests, 'ConfigMap', 'funding-gateway-config');
      (configMap.data as Record<string, string>).DATABASE_URI = 'x';
      (configMap.data as Record<string, string>).METRICS_TOKEN = 'a-token-of-sixteen-chars';
      containerOf(manifests, 'Deployment', 'worker').env![0]!.value = 'not-a-port';
      containerOf(manifests, 'Deployment', 'tenants').envFrom![1] = { secretRef: { name: 'funding-gateway-secret' } };
      const problems = environmentProblems(manifests);
      expect(problems).toEqual(
        expect.arrayContaining([
          'config.yaml ConfigMap/funding-gateway-config: DATABASE_URI is not a key of src/kernel/config.ts',
          'config.yaml ConfigMap/funding-gateway-config: METRICS_TOKEN is a secret: put it in the Secret',
          'subgraphs.yaml Deployment/tenants container tenants: envFrom Secret funding-gateway-secret is not in deploy/kubernetes/base',
          expect.stringMatching(/Deployment\/worker container worker: configuration does not load: Invalid configuration:\n {2}PORT/),
          // Without the Secret, production has no signing keys.
          expect.stringMatching(/Deployment\/tenants container tenants: configuration does not load: .*AUTH_SIGNING_KEYS/s),
        ]),
      );
    });
  });

  describe('probes', () => {
    it('ask paths health.ts serves, on the port each process listens on', () => {
      expect(probeProblems(loadManifests())).toEqual([]);
    });

    it('catch an unserved path, a readiness probe on liveness, a TCP liveness probe, a wrong port and a missing probe', () => {
      const manifests = loadManifests();
      containerOf(manifests, 'Deployment', 'rest').livenessProbe!.httpGet!.path = '/healthz';
      containerOf(manifests, 'Deployment', 'worker').readinessProbe!.httpGet!.path = '/health';
      containerOf(manifests, 'Deployment', 'profiles').startupProbe!.httpGet!.port = 'metrics';
      delete containerOf(manifests, 'Deployment', 'gateway').livenessProbe;
      containerOf(manifests, 'Deployment', 'tenants').livenessProbe = { tcpSocket: { port: 'http' } };
      expect(probeProblems(manifests).sort()).toEqual([
        'gateway.yaml Deployment/gateway container gateway: no livenessProbe',
        'rest.yaml Deployment/rest container rest: livenessProbe asks /healthz, not /health',
        'rest.yaml Deployment/rest container rest: livenessProbe path /healthz is not served (health.ts serves /health, /health/ready)',
        'subgraphs.yaml Deployment/profiles container profiles: startupProbe on port 9464, but the process listens on PORT=4011',
        'subgraphs.yaml Deployment/tenants container tenants: livenessProbe must ask /health over HTTP',
        'worker.yaml Deployment/worker container worker: readinessProbe must ask /health/ready (dependencies)',
      ]);
    });
  });

  describe('Services', () => {
    it('select one Deployment each on a declared port; the gateway and REST URLs name them', () => {
      expect(serviceProblems(loadManifests())).toEqual([]);
    });

    it('catch a selector matching nothing, a wrong target port and a URL to the wrong Service', () => {
      const manifests = loadManifests();
      (find(manifests, 'Service', 'matches').spec as { selector: Record<string, string> }).selector['app.kubernetes.io/component'] = 'match';
      (find(manifests, 'Service', 'rest').spec as { ports: Array<{ targetPort: string }> }).ports[0]!.targetPort = 'web';
      (find(manifests, 'ConfigMap', 'funding-gateway-config').data as Record<string, string>).TENANTS_URL = 'http://profiles:4011/graphql';
      expect(serviceProblems(manifests).sort()).toEqual([
        'MATCHES_URL: Service matches does not select the matches pods',
        'TENANTS_URL: Service profiles does not select the tenants pods',
        'rest.yaml Service/rest: targetPort web is not a port of rest',
        'subgraphs.yaml Service/matches: selects the pods of 0 Deployments',
      ]);
    });
  });

  describe('the subgraph secret and the NetworkPolicies', () => {
    it('give SUBGRAPH_SECRET to the gateway and the subgraphs only', () => {
      expect(subgraphSecretProblems(loadManifests())).toEqual([]);
    });

    it('let only the gateway reach the subgraphs, and only the processes with a database reach PostgreSQL', () => {
      expect(networkProblems(loadManifests())).toEqual([]);
    });

    it('catch the secret in the REST adapter or missing from a subgraph', () => {
      const manifests = loadManifests();
      containerOf(manifests, 'Deployment', 'rest').envFrom!.push({ secretRef: { name: 'funding-gateway-subgraph-secret' } });
      containerOf(manifests, 'Deployment', 'matches').envFrom!.pop();
      expect(subgraphSecretProblems(manifests).sort()).toEqual([
        'rest.yaml Deployment/rest: holds SUBGRAPH_SECRET, which only the gateway and the subgraphs need',
        'subgraphs.yaml Deployment/matches: no SUBGRAPH_SECRET',
      ]);
    });

    it('catch a subgraph policy open to every pod, a database policy that admits the gateway, and a gateway free to leave', () => {
      const manifests = loadManifests();
      const spec = (name: string) => find(manifests, 'NetworkPolicy', name).spec as PolicySpec;
      delete spec('subgraphs-from-gateway-only').ingress![0]!.from;
      spec('database-clients-only').ingress![0]!.from![0]!.podSelector!.matchExpressions![0]!.values!.push('gateway');
      spec('gateway-egress').egress!.push({ ports: [{ port: DATABASE_PORT }] });
      const problems = networkProblems(manifests);
      expect(problems).toEqual(
        expect.arrayContaining([
          'rest reaches profiles on port 4011',
          'another pod of the namespace reaches tenants on port 4014',
          'a pod elsewhere reaches matches on port 4012',
          'gateway reaches PostgreSQL',
        ]),
      );
      expect(problems).toContain('gateway reaches port 5432 outside the namespace (a PostgreSQL outside the cluster)');
      // The processes that use the database still reach it, and nobody else does.
      expect(problems.filter((p) => p.includes('PostgreSQL') && !p.startsWith('gateway'))).toEqual([]);
    });

    it('catch a missing database policy and a gateway that cannot reach a subgraph', () => {
      const manifests = loadManifests().filter((m) => m.metadata.name !== 'database-clients-only');
      (find(manifests, 'NetworkPolicy', 'gateway-egress').spec as PolicySpec).egress![0]!.ports = [{ port: 'metrics' }];
      expect(networkProblems(manifests)).toEqual(
        expect.arrayContaining([
          'no policy selects the PostgreSQL pods',
          'gateway does not reach profiles on port 4011',
          'gateway does not reach tenants on port 4014',
          'another pod of the namespace reaches PostgreSQL',
        ]),
      );
    });
  });

  describe('pods', () => {
    it("run the Dockerfile's image as its non-root user, with requests and a memory limit", () => {
      expect(podProblems(loadManifests())).toEqual([]);
    });

    it('catch another image, root, missing resources, a writable root and a missing volume', () => {
      const manifests = loadManifests();
      containerOf(manifests, 'Deployment', 'gateway').image = 'funding-gateway:latest';
      podTemplateOf(find(manifests, 'Job', 'funding-gateway-migrate'))!.spec.securityContext!.runAsUser = 0;
      delete containerOf(manifests, 'Deployment', 'worker').resources;
      containerOf(manifests, 'Deployment', 'rest').securityContext!.readOnlyRootFilesystem = false;
      containerOf(manifests, 'Deployment', 'matches').volumeMounts!.shift();
      podTemplateOf(find(manifests, 'Deployment', 'tenants'))!.spec.volumes!.pop();
      expect(podProblems(manifests).sort()).toEqual([
        `gateway.yaml Deployment/gateway container gateway: image funding-gateway:latest, not the Dockerfile's ${IMAGE}`,
        "migrate-job.yaml Job/funding-gateway-migrate container migrate: runAsUser 0, not the image's node user (1000)",
        'rest.yaml Deployment/rest container rest: readOnlyRootFilesystem is not true',
        'subgraphs.yaml Deployment/matches container matches: no writable volume at /tmp',
        'subgraphs.yaml Deployment/tenants container tenants: its mount at /app/.data names no volume of the pod (data)',
        'worker.yaml Deployment/worker container worker: no cpu request',
        'worker.yaml Deployment/worker container worker: no memory limit',
        'worker.yaml Deployment/worker container worker: no memory request',
      ]);
    });
  });

  describe('HorizontalPodAutoscalers', () => {
    it('scale the gateway, the REST adapter and each subgraph, alone setting their replicas, on the CPU they request', () => {
      expect(autoscalingProblems(loadManifests())).toEqual([]);
    });

    it('catch a missing autoscaler, replicas beside one, a wrong target and a container without a CPU request', () => {
      const manifests = loadManifests().filter((m) => !(m.kind === 'HorizontalPodAutoscaler' && m.metadata.name === 'tenants'));
      (find(manifests, 'Deployment', 'rest').spec as Json).replicas = 2;
      (find(manifests, 'HorizontalPodAutoscaler', 'matches').spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name = 'match';
      delete containerOf(manifests, 'Deployment', 'gateway').resources!.requests!.cpu;
      expect(autoscalingProblems(manifests).sort()).toEqual([
        'hpa.yaml HorizontalPodAutoscaler/gateway: gateway requests no cpu',
        'hpa.yaml HorizontalPodAutoscaler/matches: scales Deployment/match, not a Deployment here',
        'matches: 0 HorizontalPodAutoscalers',
        'rest.yaml Deployment/rest: sets replicas, which each apply would reset under its HorizontalPodAutoscaler',
        'tenants: 0 HorizontalPodAutoscalers',
      ]);
    });
  });

  describe.skipIf(!KUBECTL)('overlays, rendered by kubectl kustomize', () => {
    const rendered = Object.fromEntries(OVERLAYS.map((name) => [name, KUBECTL ? renderOverlay(name) : []]));

    it.each(OVERLAYS)('%s: every check of the base holds', (name) => {
      const manifests = rendered[name]!;
      expect(manifests.length).toBe(loadManifests().length);
      expect(schemaProblems(manifests)).toEqual([]);
      expect(workloadCommandProblems(manifests)).toEqual([]);
      expect(environmentProblems(manifests)).toEqual([]);
      expect(probeProblems(manifests)).toEqual([]);
      expect(serviceProblems(manifests)).toEqual([]);
      expect(subgraphSecretProblems(manifests)).toEqual([]);
      expect(networkProblems(manifests)).toEqual([]);
      expect(podProblems(manifests)).toEqual([]);
      expect(autoscalingProblems(manifests)).toEqual([]);
      // Each in a namespace of its own, so the two can share a cluster.
      expect(new Set(manifests.map((m) => (m.metadata as { namespace?: string }).namespace))).toEqual(
        new Set([name === 'demo' ? 'funding-gateway-demo' : 'funding-gateway']),
      );
    });

    it('demo: the demo data and Redis keys of its own, one replica of each; production: as the base', () => {
      const env = (manifests: Manifest[]) => loadConfig(environmentOf(manifests, containerOf(manifests, 'Deployment', 'rest')).env);
      expect(env(rendered.demo!)).toMatchObject({ DEPLOY_ENV: 'demo', REDIS_KEY_PREFIX: 'fg:demo:' });
      expect(env(rendered.production!)).toMatchObject({ DEPLOY_ENV: 'production', REDIS_KEY_PREFIX: 'fg:production:' });
      for (const d of byKind(rendered.demo!, 'Deployment')) expect(fewestReplicas(rendered.demo!, d), d.metadata.name).toBe(1);
      for (const d of byKind(rendered.production!, 'Deployment')) expect(fewestReplicas(rendered.production!, d), d.metadata.name).toBe(2);
    });
  });
});
