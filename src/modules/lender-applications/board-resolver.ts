/** Thin adapters: the operations dashboard's board of lender applications and a row's history. */
import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { getApplicationHistory, listBoardApplications } from './application-board.js';
import { BoardFilter, BoardRow, HistoryEntry } from './application-board-schemas.js';
import { inputTypeFrom, objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';

const LenderApplicationRow = objectTypeFrom(BoardRow);
const ApplicationHistoryEntry = objectTypeFrom(HistoryEntry);
// The filter's public name predates the derived inputs' `Input` suffix.
const LenderApplicationFilter = inputTypeFrom(BoardFilter, { name: 'LenderApplicationFilter', exactName: true });

@Resolver(() => LenderApplicationRow)
export class ApplicationBoardResolver {
  @Query(() => [LenderApplicationRow], { description: "Lender applications the platform user sees (staff: all; others: their account's), last changed first, at most 200" })
  lenderApplicationBoard(
    @Arg('filter', () => LenderApplicationFilter, { nullable: true }) filter: BoardFilter | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<BoardRow[]> {
    return listBoardApplications(ctx, filter ? { ...filter } : {});
  }

  @Query(() => [ApplicationHistoryEntry], { description: "A lender application's history: status moves, offers (replaced ones too) and the client's decisions" })
  lenderApplicationHistory(@Arg('applicationId', () => Int) applicationId: number, @Ctx() ctx: ServiceContext): Promise<HistoryEntry[]> {
    return getApplicationHistory(ctx, applicationId);
  }
}
