/**
 * GraphQL types of the tenants subgraph, derived from the tenant schemas (tenant-schemas.ts). Tenant
 * is an entity: other subgraphs extend it by id; it is derived first so the page holding it reuses it.
 */
import { CreateTenantBody, TenantConnection as TenantConnectionSchema, TenantDto, TenantPage as TenantPageSchema, UpdateTenantBody } from './tenant-schemas.js';
import { inputTypeFrom, objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';

/** The integrator's own reference is free text, not an id of this graph (ID is for the latter). */
const REFERENCE = "The integrator's own reference, not an id of this graph.";

export const Tenant = objectTypeFrom(TenantDto, { key: 'id', strings: { 'Tenant.referenceId': REFERENCE } });
export const TenantPage = objectTypeFrom(TenantPageSchema, 'TenantPage');
export const TenantConnection = objectTypeFrom(TenantConnectionSchema, 'TenantConnection');
export const CreateTenantInput = inputTypeFrom(CreateTenantBody, { name: 'CreateTenant', strings: { 'CreateTenant.referenceId': REFERENCE } });
export const UpdateTenantInput = inputTypeFrom(UpdateTenantBody, { name: 'UpdateTenant', strings: { 'UpdateTenant.referenceId': REFERENCE } });
