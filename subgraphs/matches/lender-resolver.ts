/** Thin adapter over domain/lenders/lender-catalogue. */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as management from '../../src/domain/lenders/lender-management.js';
import type { ServiceContext } from '../../src/domain/context.js';
import * as catalogue from '../../src/domain/lenders/lender-catalogue.js';
import { Lender } from './lender-types.js';

@Resolver(() => Lender)
export class LenderResolver {
  @Query(() => [Lender], { description: 'Active lenders with their products' })
  lenders(@Ctx() ctx: ServiceContext): Promise<catalogue.LenderSummary[]> {
    return catalogue.listLenders(ctx);
  }

  @Mutation(() => Lender, { description: 'Add a lender (staff, admin scope): { name, logo, description, responseTimeHours, requiredDocuments, priceBand }' })
  createLender(@Arg('input', () => GraphQLJSONObject) input: Record<string, unknown>, @Ctx() ctx: ServiceContext): Promise<catalogue.LenderSummary> {
    return management.createLender(ctx, input);
  }

  @Mutation(() => Lender, { description: 'Change a lender (staff, admin scope); active: false takes it out of matching' })
  updateLender(@Arg('id', () => Int) id: number, @Arg('input', () => GraphQLJSONObject) input: Record<string, unknown>, @Ctx() ctx: ServiceContext): Promise<catalogue.LenderSummary> {
    return management.updateLender(ctx, id, input);
  }

  @Mutation(() => Lender, { description: "Create or replace a lender's product of a type: criteria, fees, pricing, instant offer (staff, admin scope)" })
  saveLenderProduct(@Arg('lenderId', () => Int) lenderId: number, @Arg('input', () => GraphQLJSONObject) input: Record<string, unknown>, @Ctx() ctx: ServiceContext): Promise<catalogue.LenderSummary> {
    return management.saveLenderProduct(ctx, lenderId, input);
  }

  @Query(() => Lender)
  lender(@Arg('id', () => Int) id: number, @Ctx() ctx: ServiceContext): Promise<catalogue.LenderSummary> {
    return catalogue.getLender(ctx, id);
  }
}
