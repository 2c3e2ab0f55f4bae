/** Thin adapter over domain/lenders/lender-catalogue. */
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { z } from 'zod';
import * as management from './lender-management.js';
import type { ServiceContext } from '../../kernel/context.js';
import * as catalogue from './lender-catalogue.js';
import { inputTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import { Lender, LenderSettings } from './lender-types.js';
import { listLenderSettings } from './lender-settings.js';
import type { LenderSettings as LenderSettingsResult } from './lender-schemas.js';

const LenderInput = inputTypeFrom(management.LenderInput, 'Lender');
const LenderUpdateInput = inputTypeFrom(management.LenderUpdate, 'LenderUpdate');
const LenderProductInput = inputTypeFrom(management.ProductInput, 'LenderProduct');

@Resolver(() => Lender)
export class LenderResolver {
  @Query(() => [Lender], { description: 'Active lenders with their products' })
  lenders(@Ctx() ctx: ServiceContext): Promise<catalogue.LenderSummary[]> {
    return catalogue.listLenders(ctx);
  }

  @Mutation(() => Lender, { description: 'Add a lender (staff, admin scope)' })
  createLender(@Arg('input', () => LenderInput) input: z.input<typeof management.LenderInput>, @Ctx() ctx: ServiceContext): Promise<catalogue.LenderSummary> {
    return management.createLender(ctx, input);
  }

  @Mutation(() => Lender, { description: 'Change a lender (staff, admin scope); active: false takes it out of matching' })
  updateLender(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => LenderUpdateInput) input: z.input<typeof management.LenderUpdate>,
    @Ctx() ctx: ServiceContext,
  ): Promise<catalogue.LenderSummary> {
    return management.updateLender(ctx, id, input);
  }

  @Mutation(() => Lender, { description: "Create or replace a lender's product of a type: criteria, fees, pricing, instant offer (staff, admin scope)" })
  saveLenderProduct(
    @Arg('lenderId', () => Int) lenderId: number,
    @Arg('input', () => LenderProductInput) input: z.input<typeof management.ProductInput>,
    @Ctx() ctx: ServiceContext,
  ): Promise<catalogue.LenderSummary> {
    return management.saveLenderProduct(ctx, lenderId, input);
  }

  @Query(() => [LenderSettings], {
    description: "Every lender's webhook URLs and its products' complete terms, to edit them (staff, admin scope; never secrets)",
  })
  lenderSettings(@Ctx() ctx: ServiceContext): Promise<LenderSettingsResult[]> {
    return listLenderSettings(ctx);
  }

  @Query(() => Lender)
  lender(@Arg('id', () => Int) id: number, @Ctx() ctx: ServiceContext): Promise<catalogue.LenderSummary> {
    return catalogue.getLender(ctx, id);
  }
}
