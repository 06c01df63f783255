import type { ListPage } from './types.js';

type PageQuery = { page?: number; limit?: number };

/**
 * What a `list()` call returns. `await` it for one page (`{ data, pagination }`), or iterate it with
 * `for await (const item of …)` for every item of every page from the requested one on, fetched one page at a time
 * (100 items per request unless `limit` was given).
 */
export class ListRequest<T extends { id: string }, Q extends PageQuery>
  implements PromiseLike<ListPage<T>>, AsyncIterable<T>
{
  private firstPage: Promise<ListPage<T>> | undefined;

  constructor(
    private readonly fetchPage: (query: Q) => Promise<ListPage<T>>,
    private readonly query: Q,
  ) {}

  // biome-ignore lint/suspicious/noThenProperty: a list call is awaited for its first page, as in stripe-node.
  then<R1 = ListPage<T>, R2 = never>(
    onFulfilled?: ((page: ListPage<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    this.firstPage ??= this.fetchPage(this.query);
    return this.firstPage.then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<ListPage<T> | R> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<ListPage<T>> {
    return this.then().finally(onFinally);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    // Lists are newest first and paged by offset: an item created while we walk pushes older ones down a page,
    // which would show one twice. Items already yielded are skipped.
    const seen = new Set<string>();
    let page = this.query.page ?? 1;
    const limit = this.query.limit ?? 100;
    for (;;) {
      const { data, pagination } = await this.fetchPage({ ...this.query, page, limit });
      for (const item of data) {
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        yield item;
      }
      if (data.length === 0 || page >= pagination.totalPages) return;
      page++;
    }
  }
}
