package dev.opledger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PagedFetchTest {

    private final List<String> calls = new ArrayList<>();

    private List<Integer> rowsOfATableWith(int total, int offset, int limit) {
        calls.add(offset + "+" + limit);
        return IntStream.range(offset, Math.min(total, offset + limit)).boxed().toList();
    }

    @Test
    void asksOnceWhenTheRequestFitsOnePage() {
        var rows = PagedFetch.rows(50, 50, 500, (offset, limit) -> rowsOfATableWith(1000, offset, limit)).toList();

        assertThat(rows).hasSize(50).startsWith(50).endsWith(99);
        assertThat(calls).containsExactly("50+50");
    }

    @Test
    void splitsALargerRequestIntoPagesTheFacadeAccepts() {
        var rows = PagedFetch.rows(0, 1200, 500, (offset, limit) -> rowsOfATableWith(5000, offset, limit)).toList();

        assertThat(rows).hasSize(1200).startsWith(0).endsWith(1199);
        assertThat(calls).containsExactly("0+500", "500+500", "1000+200");
    }

    @Test
    void stopsAtTheFirstShortPage() {
        var rows = PagedFetch.rows(0, 1200, 500, (offset, limit) -> rowsOfATableWith(700, offset, limit)).toList();

        assertThat(rows).hasSize(700);
        assertThat(calls).containsExactly("0+500", "500+500");
    }
}
