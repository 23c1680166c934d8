package io.sluice.bench.sidebyside;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

/** The suite's PNG charts, drawn with XChart. */
final class Charts {

    private Charts() {}

    /**
     * Latency CDFs, one series per contender: latency (ms, log scale) against the share of messages.
     *
     * @param latency what was timed, for the x axis: "send latency", "publish-to-receive latency"
     */
    static void latencyCdf(String title, String latency, Map<String, double[][]> cdfByContender, Path png) {
        XYChart chart = new XYChartBuilder()
                .width(900)
                .height(550)
                .title(title)
                .xAxisTitle(latency + " (ms, log scale)")
                .yAxisTitle("share of messages at or below")
                .build();
        chart.getStyler().setXAxisLogarithmic(true);
        cdfByContender.forEach((name, xy) -> line(chart, name, xy[0], xy[1]));
        save(chart, png);
    }

    /** Achieved rate over time, one series per contender, with the configured rate as a line. */
    static void rateOverTime(String title, double configured, Map<String, double[][]> seriesByContender, Path png) {
        XYChart chart = new XYChartBuilder()
                .width(900)
                .height(550)
                .title(title)
                .xAxisTitle("seconds since the flood started")
                .yAxisTitle("acknowledged msg/s (0.25 s slots)")
                .build();
        double end = 0;
        for (Map.Entry<String, double[][]> series : seriesByContender.entrySet()) {
            double[][] xy = series.getValue();
            line(chart, series.getKey(), xy[0], xy[1]);
            end = Math.max(end, xy[0].length == 0 ? 0 : xy[0][xy[0].length - 1]);
        }
        line(chart, "configured", new double[] {0, end}, new double[] {configured, configured});
        save(chart, png);
    }

    /**
     * An adaptive limit at work, second by second (log scales): on the left the bulk producer's
     * acknowledged rate and the rate in force, on the right the online producer's p99, the broker's
     * p99 the limit followed and the target.
     */
    static void adaptiveTimeline(
            String title,
            double[] seconds,
            double[] bulkRate,
            double[] rateInForce,
            double[] onlineP99,
            double[] brokerP99,
            double targetMillis,
            Path png) {
        XYChart chart = new XYChartBuilder()
                .width(900)
                .height(550)
                .title(title)
                .xAxisTitle("seconds since the flood started")
                .yAxisTitle("msg/s (log scale)")
                .build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        chart.setYAxisGroupTitle(1, "ms (log scale)");
        line(chart, "bulk acknowledged", seconds, positive(bulkRate));
        line(chart, "bulk rate in force", seconds, positive(rateInForce));
        line(chart, "online p99", seconds, positive(onlineP99)).setYAxisGroup(1);
        line(chart, "broker p99 followed", seconds, positive(brokerP99)).setYAxisGroup(1);
        double end = seconds.length == 0 ? 1 : seconds[seconds.length - 1];
        line(chart, "target", new double[] {0, end}, new double[] {targetMillis, targetMillis})
                .setYAxisGroup(1);
        save(chart, png);
    }

    /** A figure a log scale can draw: a missing or zero one as the smallest drawn. */
    private static double[] positive(double[] values) {
        double[] drawn = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            drawn[i] = Double.isNaN(values[i]) || values[i] < 0.01 ? 0.01 : values[i];
        }
        return drawn;
    }

    private static XYSeries line(XYChart chart, String name, double[] x, double[] y) {
        XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.NONE);
        return series;
    }

    private static void save(XYChart chart, Path png) {
        try {
            BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }
}
