package dev.opledger.bench.report;

import java.nio.file.Path;

/** The command line of {@link Chart}, checked. */
record ChartRequest(String title, String xLabel, String yLabel, boolean bars, boolean horizontal, int width, int height,
        Path out, Path input) {

    static final String USAGE = "usage: chart --title T --x-label X --y-label Y [--bars [--horizontal]] [--width 800] [--height 450]"
            + " --out file.png input.tsv";

    static ChartRequest parse(String[] args) {
        String title = null;
        String xLabel = "";
        String yLabel = "";
        boolean bars = false;
        boolean horizontal = false;
        int width = 800;
        int height = 450;
        Path out = null;
        Path input = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--title" -> title = value(args, ++i);
                case "--x-label" -> xLabel = value(args, ++i);
                case "--y-label" -> yLabel = value(args, ++i);
                case "--bars" -> bars = true;
                case "--horizontal" -> horizontal = true;
                case "--width" -> width = pixels(value(args, ++i));
                case "--height" -> height = pixels(value(args, ++i));
                case "--out" -> out = Path.of(value(args, ++i));
                default -> {
                    if (args[i].startsWith("--") || input != null) {
                        throw new IllegalArgumentException("unexpected argument " + args[i]);
                    }
                    input = Path.of(args[i]);
                }
            }
        }
        if (title == null || out == null || input == null) {
            throw new IllegalArgumentException("--title, --out and an input file are required");
        }
        if (horizontal && !bars) {
            throw new IllegalArgumentException("--horizontal is for --bars");
        }
        return new ChartRequest(title, xLabel, yLabel, bars, horizontal, width, height, out, input);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static int pixels(String text) {
        try {
            int pixels = Integer.parseInt(text);
            if (pixels < 100 || pixels > 4000) {
                throw new IllegalArgumentException("a size between 100 and 4000 pixels, not " + text);
            }
            return pixels;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a size in pixels, not " + text);
        }
    }
}
