package dev.opledger.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** Draws {@link Figures} with JFreeChart and writes them as a PNG. */
final class ChartRenderer {

    private ChartRenderer() {
    }

    static void render(ChartRequest request, Figures figures, Path out) throws IOException {
        JFreeChart chart = request.bars() ? bars(request, figures) : lines(request, figures);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(out.toFile(), chart, request.width(), request.height());
    }

    private static JFreeChart lines(ChartRequest request, Figures figures) {
        XYSeriesCollection dataset = new XYSeriesCollection();
        for (Map.Entry<String, List<Figures.Point>> entry : figures.series().entrySet()) {
            XYSeries series = new XYSeries(entry.getKey(), true, true);
            int n = 0;
            for (Figures.Point point : entry.getValue()) {
                series.add(Figures.number(point.x(), n++), point.y());
            }
            dataset.addSeries(series);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(request.title(), request.xLabel(), request.yLabel(),
                dataset, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int s = 0; s < dataset.getSeriesCount(); s++) {
            renderer.setSeriesStroke(s, new BasicStroke(2f));
        }
        plot.setRenderer(renderer);
        return chart;
    }

    private static JFreeChart bars(ChartRequest request, Figures figures) {
        DefaultCategoryDataset dataset = new DefaultCategoryDataset();
        figures.series().forEach((series, points) -> points.forEach(p -> dataset.addValue(p.y(), series, p.x())));
        JFreeChart chart = ChartFactory.createBarChart(request.title(), request.xLabel(), request.yLabel(),
                dataset, request.horizontal() ? PlotOrientation.HORIZONTAL : PlotOrientation.VERTICAL, true, false,
                false);
        CategoryPlot plot = chart.getCategoryPlot();
        // long category names (a benchmark and its measure) wrap instead of ending in "…"
        plot.getDomainAxis().setMaximumCategoryLabelLines(3);
        if (request.horizontal()) {
            plot.getDomainAxis().setMaximumCategoryLabelWidthRatio(0.4f);
        }
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return chart;
    }
}
