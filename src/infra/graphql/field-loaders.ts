/**
 * Per-request batching of the fields a subgraph resolves for many parents (Profile.documents of
 * every profile in a list, every entity reference of one `_entities` call): the resolvers of one
 * field load through one DataLoader of the request, whose batch is one call of a domain operation
 * taking all the parents' ids, so a list of N parents costs the same statements as one parent, and
 * the field's access row is decided once per batch.
 *
 * The loaders hang off the request's ServiceContext (one per HTTP request in-process, one per
 * subgraph request in the distributed mode), so they die with it. They batch but do not cache: a
 * mutation earlier in the same request must not leave a stale answer behind.
 */
import DataLoader from 'dataloader';
import type { ServiceContext } from '../../kernel/context.js';

type Loaders = Map<string, DataLoader<string, unknown>>;
const loadersOfRequest = new WeakMap<ServiceContext, Loaders>();

/**
 * The value of one parent, loaded with every other parent of the same `field` (and arguments) in
 * this request through `batch`, which answers one value per id in the order given.
 */
export function loadBatched<V>(ctx: ServiceContext, field: string, batch: (ids: readonly string[]) => Promise<readonly V[]>, id: string): Promise<V> {
  let loaders = loadersOfRequest.get(ctx);
  if (!loaders) {
    loaders = new Map();
    loadersOfRequest.set(ctx, loaders);
  }
  let loader = loaders.get(field) as DataLoader<string, V> | undefined;
  if (!loader) {
    loader = new DataLoader<string, V>((ids) => batch(ids), { cache: false });
    loaders.set(field, loader as DataLoader<string, unknown>);
  }
  return loader.load(id);
}

/**
 * An entity reference resolved in a subgraph that does not own the entity: answered (as the
 * reference itself) only if the caller sees it, all references of the request in one look-up.
 * Anyone who can reach a subgraph's port can send `_entities`, so the gateway's word is not taken.
 */
export function visibleReference<R>(
  typeName: string,
  idOf: (ref: R) => string,
  visibleAmong: (ctx: ServiceContext, ids: readonly string[]) => Promise<boolean[]>,
) {
  return async (ref: R, ctx: ServiceContext): Promise<R | null> =>
    (await loadBatched(ctx, `${typeName} reference`, (ids) => visibleAmong(ctx, ids), idOf(ref))) ? ref : null;
}
