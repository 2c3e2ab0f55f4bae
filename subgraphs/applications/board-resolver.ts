/** Thin adapters: the operations dashboard's board of lender applications and a row's history. */
import { Arg, Ctx, Field, InputType, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../src/domain/context.js';
import { getApplicationHistory, listBoardApplications, type BoardRow, type HistoryEntry } from '../../src/domain/lender-api/application-board.js';

@ObjectType({ description: "A lender application's current (or a replaced) offer: its status and key terms" })
export class BoardOffer {
  @Field(() => String) id!: string;
  @Field(() => String) reference!: string;
  @Field(() => String, { description: 'INDICATIVE or FINAL' }) status!: string;
  @Field(() => String, { nullable: true, description: 'ACCEPTED or DECLINED once the client decided' }) decision!: string | null;
  @Field(() => String) productType!: string;
  @Field(() => Number, { nullable: true, description: 'Maximum amount or credit line, in pounds' }) amount!: number | null;
  @Field(() => Int, { nullable: true }) termMonths!: number | null;
  @Field(() => Number, { nullable: true }) interestRate!: number | null;
  @Field(() => String) createdAt!: string;
}

@ObjectType({ description: 'One row of the operations board: a lender application as it stands' })
export class LenderApplicationRow {
  @Field(() => Int) id!: number;
  @Field(() => String, { nullable: true }) companyName!: string | null;
  @Field(() => Int) lenderId!: number;
  @Field(() => String) lenderName!: string;
  @Field(() => String, { nullable: true }) productType!: string | null;
  @Field(() => Number, { nullable: true, description: 'The funding amount asked for, in pounds' }) amount!: number | null;
  @Field(() => String) status!: string;
  @Field(() => BoardOffer, { nullable: true }) offer!: BoardOffer | null;
  @Field(() => String) createdAt!: string;
  @Field(() => String, { description: 'Last change (status, offer or decision), ISO 8601' }) updatedAt!: string;
}

@ObjectType({ description: "An entry of a lender application's history" })
export class ApplicationHistoryEntry {
  @Field(() => String) at!: string;
  @Field(() => String, { description: 'STATUS (a move), OFFER (made; replacedAt once replaced) or DECISION (the client accepted or declined)' }) kind!: string;
  @Field(() => String, { nullable: true }) status!: string | null;
  @Field(() => String, { nullable: true }) fromStatus!: string | null;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => String, { nullable: true }) comment!: string | null;
  @Field(() => BoardOffer, { nullable: true }) offer!: BoardOffer | null;
  @Field(() => String, { nullable: true }) replacedAt!: string | null;
}

@InputType({ description: 'Board filters; updatedSince catches up after a lost event stream' })
export class LenderApplicationFilter {
  @Field(() => String, { nullable: true }) status?: string;
  @Field(() => Int, { nullable: true }) lenderId?: number;
  @Field(() => Int, { nullable: true }) applicationId?: number;
  @Field(() => String, { nullable: true, description: 'ISO 8601: only rows changed at or after it' }) updatedSince?: string;
}

@Resolver(() => LenderApplicationRow)
export class ApplicationBoardResolver {
  @Query(() => [LenderApplicationRow], { description: "Lender applications the platform user sees (staff: all; others: their account's), last changed first, at most 200" })
  lenderApplicationBoard(
    @Arg('filter', () => LenderApplicationFilter, { nullable: true }) filter: LenderApplicationFilter | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<BoardRow[]> {
    return listBoardApplications(ctx, filter ? { ...filter } : {});
  }

  @Query(() => [ApplicationHistoryEntry], { description: "A lender application's history: status moves, offers (replaced ones too) and the client's decisions" })
  lenderApplicationHistory(@Arg('applicationId', () => Int) applicationId: number, @Ctx() ctx: ServiceContext): Promise<HistoryEntry[]> {
    return getApplicationHistory(ctx, applicationId);
  }
}
