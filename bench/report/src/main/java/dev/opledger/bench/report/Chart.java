package dev.opledger.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code chart --title T --x-label X --y-label Y [--bars [--horizontal]] [--width W] [--height H] --out file.png
 * input.tsv}: draws the TSV's figures (a header line, then {@code series<TAB>x<TAB>y} rows) as one
 * line per series, or with {@code --bars} as grouped bars, x being the category ({@code --horizontal}:
 * bars across, for long category names). Exit status 0 when
 * the PNG is written, 2 on bad arguments or input (the message on standard error, no file written).
 */
public final class Chart {

    private Chart() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.err));
    }

    static int run(String[] args, PrintStream err) {
        // a benchmark host has no display; AWT must not look for one
        System.setProperty("java.awt.headless", "true");
        try {
            ChartRequest request = ChartRequest.parse(args);
            Figures figures = Figures.read(Files.readAllLines(request.input()));
            Path out = request.out().toAbsolutePath();
            if (out.getParent() != null) {
                Files.createDirectories(out.getParent());
            }
            ChartRenderer.render(request, figures, out);
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("chart: " + e.getMessage());
            err.println(ChartRequest.USAGE);
            return 2;
        } catch (IOException e) {
            err.println("chart: " + e);
            return 2;
        }
    }
}
