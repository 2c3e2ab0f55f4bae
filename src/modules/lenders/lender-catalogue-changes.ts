/**
 * Who is told when this process changes a lender or its products: modules that keep something
 * derived from the catalogue (matching's in-memory product index) listen here, so the lenders
 * module needs to know nothing of them. Other processes see the change within their cache's TTL.
 */
import type { Db } from '../../kernel/context.js';

type Listener = (db: Db) => void;

const listeners = new Set<Listener>();

export function onLenderCatalogueChange(listener: Listener): void {
  listeners.add(listener);
}

export function lenderCatalogueChanged(db: Db): void {
  for (const listener of listeners) listener(db);
}
