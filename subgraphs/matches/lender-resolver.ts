/** Thin adapter over domain/lenders/lender-catalogue. */
import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../src/domain/context.js';
import * as catalogue from '../../src/domain/lenders/lender-catalogue.js';
import { Lender } from './lender-types.js';

@Resolver(() => Lender)
export class LenderResolver {
  @Query(() => [Lender], { description: 'Active lenders with their products' })
  lenders(@Ctx() ctx: ServiceContext): Promise<catalogue.LenderSummary[]> {
    return catalogue.listLenders(ctx);
  }

  @Query(() => Lender)
  lender(@Arg('id', () => Int) id: number, @Ctx() ctx: ServiceContext): Promise<catalogue.LenderSummary> {
    return catalogue.getLender(ctx, id);
  }
}
