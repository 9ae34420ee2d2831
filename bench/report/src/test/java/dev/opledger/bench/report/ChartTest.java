package dev.opledger.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void drawsOneLinePerSeriesAsADecodablePngOfTheAskedSize() throws IOException {
        Path tsv = write("series\tclients\tclaims_per_s\nopledger\t1\t210\nopledger\t8\t890\nopledger\t16\t1010\n"
                + "pgbench\t1\t400\npgbench\t8\t2100\npgbench\t16\t2500\n");
        Path png = dir.resolve("out/claims.png");

        int status = chart("--title", "Claims", "--x-label", "clients", "--y-label", "claims/s", "--width", "640",
                "--height", "360", "--out", png.toString(), tsv.toString());

        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).isNotNull();
        assertThat(image.getWidth()).isEqualTo(640);
        assertThat(image.getHeight()).isEqualTo(360);
        // the title is text drawn in the top band: no glyphs (no usable font) would leave it blank
        assertThat(darkPixels(image, 0, 0, 640, 30)).isGreaterThan(50);
        assertThat(Files.size(png)).isGreaterThan(5_000);
    }

    @Test
    void drawsCategoriesAsBars() throws IOException {
        Path tsv = write("series\tbenchmark\tratio\nopledger/baseline\tclaim\t0.41\nopledger/baseline\tcheckout\t0.20\n");
        Path png = dir.resolve("ratios.png");

        int status = chart("--bars", "--title", "Ratios", "--out", png.toString(), tsv.toString());

        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(800);
        assertThat(image.getHeight()).isEqualTo(450);
        assertThat(darkPixels(image, 0, 0, 800, 450)).isGreaterThan(500);
    }

    @Test
    void drawsHorizontalBarsForLongCategoryNames() throws IOException {
        Path tsv = write("series\tbenchmark\tratio\nopledger / baseline\tclaim: claims/s, fresh keys\t0.41\n"
                + "opledger / baseline\tcheckout vs DBOS: client-seen p50 ms (lower is better)\t4.0\n");
        Path png = dir.resolve("ratios.png");

        int status = chart("--bars", "--horizontal", "--title", "Ratios", "--height", "300", "--out", png.toString(),
                tsv.toString());

        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getHeight()).isEqualTo(300);
        // the category names sit left of the bars: text in the left third of the plot
        assertThat(darkPixels(image, 0, 40, 260, 200)).isGreaterThan(100);
    }

    @Test
    void refusesHorizontalWithoutBars() throws IOException {
        Path tsv = write("series\tx\ty\nopledger\t1\t2\n");

        assertThat(chart("--horizontal", "--title", "T", "--out", dir.resolve("h.png").toString(), tsv.toString()))
                .isEqualTo(2);
    }

    @Test
    void refusesARowWithoutThreeColumnsAndWritesNoFile() throws IOException {
        Path tsv = write("series\tx\ty\nopledger\t1\n");
        Path png = dir.resolve("bad.png");

        int status = chart("--title", "T", "--out", png.toString(), tsv.toString());

        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("line 2");
        assertThat(png).doesNotExist();
    }

    @Test
    void refusesANumberThatIsNotOne() throws IOException {
        Path tsv = write("series\tx\ty\nopledger\tone\t2\n");

        int status = chart("--title", "T", "--out", dir.resolve("bad.png").toString(), tsv.toString());

        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("not a number: one");
    }

    @Test
    void refusesAMissingTitle() throws IOException {
        Path tsv = write("series\tx\ty\nopledger\t1\t2\n");

        assertThat(chart("--out", dir.resolve("t.png").toString(), tsv.toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage:");
    }

    private int chart(String... args) {
        return Chart.run(args, new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private Path write(String text) throws IOException {
        return Files.writeString(dir.resolve("in-" + System.nanoTime() + ".tsv"), text);
    }

    private static int darkPixels(BufferedImage image, int x0, int y0, int width, int height) {
        int dark = 0;
        for (int y = y0; y < y0 + height; y++) {
            for (int x = x0; x < x0 + width; x++) {
                int rgb = image.getRGB(x, y);
                int brightness = ((rgb >> 16) & 0xff) + ((rgb >> 8) & 0xff) + (rgb & 0xff);
                if (brightness < 300) {
                    dark++;
                }
            }
        }
        return dark;
    }
}
