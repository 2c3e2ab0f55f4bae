/** Thin adapters: the operations dashboard's board of lender applications and a row's history. */
import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { getApplicationHistory, listBoardApplications } from './application-board.js';
import { BoardFilter, BoardPage, HistoryEntry } from './application-board-schemas.js';
import { inputTypeFrom, objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../kernel/keyset-pages.js';

const LenderApplicationBoardPage = objectTypeFrom(BoardPage);
const ApplicationHistoryEntry = objectTypeFrom(HistoryEntry);
// The filter's public name predates the derived inputs' `Input` suffix.
const LenderApplicationFilter = inputTypeFrom(BoardFilter, { name: 'LenderApplicationFilter', exactName: true });

@Resolver(() => LenderApplicationBoardPage)
export class ApplicationBoardResolver {
  @Query(() => LenderApplicationBoardPage, { description: "A page of the lender applications the platform user sees (staff: all; others: their account's), last changed first" })
  lenderApplicationBoard(
    @Arg('filter', () => LenderApplicationFilter, { nullable: true }) filter: BoardFilter | undefined,
    @Arg('first', () => Int, { nullable: true, description: `Rows in the page: ${DEFAULT_PAGE_SIZE} unless given, at most ${MAX_PAGE_SIZE}` }) first: number | undefined,
    @Arg('after', () => String, { nullable: true, description: "The previous page's pageInfo.endCursor" }) after: string | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<BoardPage> {
    return listBoardApplications(ctx, filter ? { ...filter } : {}, { first: first ?? undefined, after: after ?? undefined });
  }

  @Query(() => [ApplicationHistoryEntry], { description: "A lender application's history: status moves, offers (replaced ones too) and the client's decisions" })
  lenderApplicationHistory(@Arg('applicationId', () => Int) applicationId: number, @Ctx() ctx: ServiceContext): Promise<HistoryEntry[]> {
    return getApplicationHistory(ctx, applicationId);
  }
}
