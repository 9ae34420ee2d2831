package dev.opledger.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A TSV's rows grouped by series, in the order they first appear (a chart's legend and a bar
 * chart's categories keep the order the benchmark wrote them in). x stays text: a line chart reads
 * it as a number, a bar chart as a category.
 */
record Figures(Map<String, List<Point>> series) {

    record Point(String x, double y) {
    }

    static Figures read(List<String> lines) {
        Map<String, List<Point>> series = new LinkedHashMap<>();
        // the first line is the header
        for (int n = 1; n < lines.size(); n++) {
            String line = lines.get(n);
            if (line.isBlank()) {
                continue;
            }
            String[] cells = line.split("\t", -1);
            if (cells.length != 3) {
                throw new IllegalArgumentException("line " + (n + 1) + ": series<TAB>x<TAB>y expected, not " + line);
            }
            series.computeIfAbsent(cells[0], s -> new ArrayList<>()).add(new Point(cells[1], number(cells[2], n)));
        }
        if (series.isEmpty()) {
            throw new IllegalArgumentException("no rows after the header");
        }
        return new Figures(series);
    }

    static double number(String text, int n) {
        try {
            double value = Double.parseDouble(text.strip());
            if (!Double.isFinite(value)) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("line " + (n + 1) + ": not a number: " + text);
        }
    }
}
