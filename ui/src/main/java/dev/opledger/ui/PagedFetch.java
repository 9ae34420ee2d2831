package dev.opledger.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Serves a grid's request for {@code limit} rows from {@code offset} in pages no larger than a
 * façade accepts. With no count query, a short page tells the grid the data ended, so a request
 * larger than the façade's page size must be split, never cut.
 */
public final class PagedFetch {

    /** One call on a façade: rows {@code offset … offset + limit - 1}, newest first. */
    @FunctionalInterface
    public interface Page<T> {
        List<T> fetch(int offset, int limit);
    }

    private PagedFetch() {
    }

    public static <T> Stream<T> rows(int offset, int limit, int maxPageSize, Page<T> page) {
        if (limit <= maxPageSize) {
            return page.fetch(offset, limit).stream();
        }
        List<T> rows = new ArrayList<>(limit);
        while (rows.size() < limit) {
            int wanted = Math.min(maxPageSize, limit - rows.size());
            List<T> next = page.fetch(offset + rows.size(), wanted);
            rows.addAll(next);
            if (next.size() < wanted) {
                break;
            }
        }
        return rows.stream();
    }
}
