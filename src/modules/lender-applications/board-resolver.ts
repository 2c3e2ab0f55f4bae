/** Thin adapters: the operations dashboard's board of lender applications and a row's history. */
import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { getApplicationHistory, listBoardApplications, type CountedBoardPage } from './application-board.js';
import { BoardFilter, BoardOrder, BoardPage, BoardStatusCount, HistoryEntry } from './application-board-schemas.js';
import { inputTypeFrom, objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../kernel/keyset-pages.js';

const LenderApplicationBoardPage = objectTypeFrom(BoardPage);
const ApplicationHistoryEntry = objectTypeFrom(HistoryEntry);
const BoardStatusCountType = objectTypeFrom(BoardStatusCount);
// The filter's public name predates the derived inputs' `Input` suffix.
const LenderApplicationFilter = inputTypeFrom(BoardFilter, { name: 'LenderApplicationFilter', exactName: true });
const LenderApplicationOrder = inputTypeFrom(BoardOrder, { name: 'LenderApplicationOrder', exactName: true });

@Resolver(() => LenderApplicationBoardPage)
export class ApplicationBoardResolver {
  @Query(() => LenderApplicationBoardPage, {
    description:
      "A page of the lender applications the platform user sees (staff: all; others: their account's), in the order asked (last changed first unless given)",
  })
  lenderApplicationBoard(
    @Arg('filter', () => LenderApplicationFilter, { nullable: true }) filter: BoardFilter | undefined,
    @Arg('first', () => Int, { nullable: true, description: `Rows in the page: ${DEFAULT_PAGE_SIZE} unless given, at most ${MAX_PAGE_SIZE}` })
    first: number | undefined,
    @Arg('after', () => String, { nullable: true, description: "The previous page's pageInfo.endCursor (of the same order)" }) after: string | undefined,
    @Arg('orderBy', () => LenderApplicationOrder, { nullable: true, description: 'LAST_CHANGE DESC unless given' }) orderBy: BoardOrder | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<CountedBoardPage> {
    return listBoardApplications(ctx, filter ? { ...filter } : {}, {
      first: first ?? undefined,
      after: after ?? undefined,
      orderBy: orderBy ? { ...orderBy } : undefined,
    });
  }

  @FieldResolver(() => Int, { description: 'How many rows the filter finds, over all pages (counted only when asked, once per query)' })
  totalCount(@Root() page: CountedBoardPage): Promise<number> {
    return page.counts.total();
  }

  @FieldResolver(() => [BoardStatusCountType], {
    description: 'Rows per status under the filter without its status (for filter chips; counted only when asked)',
  })
  statusCounts(@Root() page: CountedBoardPage): Promise<BoardStatusCount[]> {
    return page.counts.byStatus();
  }

  @Query(() => [ApplicationHistoryEntry], {
    description: "A lender application's history in causal order: status moves, offers (replaced ones too) and the client's decisions",
  })
  lenderApplicationHistory(@Arg('applicationId', () => Int) applicationId: number, @Ctx() ctx: ServiceContext): Promise<HistoryEntry[]> {
    return getApplicationHistory(ctx, applicationId);
  }
}
