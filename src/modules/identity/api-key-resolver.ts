/** Thin adapters: the account's API keys for the integrator console (platform login tokens), over api-key-service. */
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { inputTypeFrom, objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import { parseInput } from '../../kernel/validation.js';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from './api-key-service.js';
import {
  ApiKey as ApiKeySchema,
  CreateApiKeyBody,
  CreatedApiKey as CreatedApiKeySchema,
  type ApiKey as ApiKeyResult,
  type CreatedApiKey as CreatedApiKeyResult,
} from './identity-schemas.js';

const ApiKey = objectTypeFrom(ApiKeySchema);
const CreatedApiKey = objectTypeFrom(CreatedApiKeySchema);
const CreateApiKeyInput = inputTypeFrom(CreateApiKeyBody.omit({ partnerApiKey: true }), { name: 'CreateApiKeyInput', exactName: true });

@Resolver()
export class ApiKeyResolver {
  @Query(() => [ApiKey], { description: "The signed-in user's account's API keys, never their secrets (platform login)" })
  apiKeys(@Ctx() ctx: ServiceContext): Promise<ApiKeyResult[]> {
    return listApiKeys(ctx);
  }

  @Mutation(() => CreatedApiKey, { description: 'A new API key of the account: its secret (`key`) is in this answer only' })
  createApiKey(@Arg('input', () => CreateApiKeyInput) input: Record<string, unknown>, @Ctx() ctx: ServiceContext): Promise<CreatedApiKeyResult> {
    return createApiKey(ctx, parseInput(CreateApiKeyBody, withoutNulls(input)));
  }

  @Mutation(() => CreatedApiKey, {
    description: 'A new secret for the key (same id, name, prefix and scopes): the old secret stops at once; the new one is in this answer only',
  })
  rotateApiKey(@Arg('id', () => ID) id: string, @Ctx() ctx: ServiceContext): Promise<CreatedApiKeyResult> {
    return rotateApiKey(ctx, id);
  }

  @Mutation(() => Boolean, { description: 'Revokes the key, its refresh tokens and the tokens issued from it (idempotent)' })
  async revokeApiKey(@Arg('id', () => ID) id: string, @Ctx() ctx: ServiceContext): Promise<boolean> {
    await revokeApiKey(ctx, id);
    return true;
  }
}

/** An explicit null means "not given", as an absent field does. */
const withoutNulls = (input: object) => Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));
