/** Thin adapter: the tenant's credit report (spec 2.5) over the tenant profile service. */
import { Ctx, Field, ID, ObjectType, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { CompanyInformation } from '../companies/company-types.js';
import { getCreditReport } from './tenant-profile-service.js';

/**
 * The credit report's data object (spec 2.5). Hand-written: GraphQL has always typed its company
 * as the profile's CompanyInformation (every field optional), while its REST result
 * (credit-report.ts) is the registry's narrower company; deriving from that would rename the type.
 */
@ObjectType({ description: 'The credit report of a tenant (spec 2.5: its data object)' })
class CreditReport {
  @Field(() => CompanyInformation) companyInformation!: unknown;
  @Field(() => ID) id!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

@Resolver()
export class CreditReportResolver {
  @Query(() => CreditReport, { description: "The tenant's credit report (tenant token, or platform token + Service-tenant-id)" })
  async creditReport(@Ctx() ctx: ServiceContext): Promise<unknown> {
    return (await getCreditReport(ctx, '/graphql')).data;
  }
}
