package io.ratatosk.bench.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;

/**
 * A chart is written whole or not at all: --timeline-chart wrote each file in place, so a drawing that failed, or a run
 * stopped while it wrote, left an empty or cut chart over the one there before, under the name asked for.
 */
class ChartFileTest {
    @TempDir
    Path dir;

    @Test
    void aDrawingThatFailsLeavesTheChartThereBefore() throws IOException {
        for (String name : List.of("timeline.png", "timeline.svg")) {
            Path chart = Files.writeString(dir.resolve(name), "the chart before");
            assertThrows(IllegalStateException.class, () -> ChartFile.save(failingChart(), chart, name.endsWith(".svg")));
            assertEquals("the chart before", Files.readString(chart), name);
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("timeline.png", "timeline.svg"), files.map(p -> p.getFileName().toString()).sorted().toList(),
                "nothing else left");
        }
    }

    @Test
    void aDrawingThatSucceedsReplacesIt() throws IOException {
        ChartFile.isSvg(dir.resolve("x.png"), "test"); // headless
        Path chart = Files.writeString(dir.resolve("timeline.png"), "the chart before");
        XYChart drawn = new XYChart(200, 100);
        drawn.addSeries("hits", new double[] {0, 1}, new double[] {50, 60});
        ChartFile.save(drawn, chart, false);
        byte[] png = Files.readAllBytes(chart);
        assertTrue(png.length > 8 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', "a PNG");
    }

    /** A chart whose drawing fails part way, as one the disk or a stop cuts short. */
    private static XYChart failingChart() {
        ChartFile.isSvg(Path.of("x.png"), "test"); // headless
        return new XYChart(200, 100) {
            @Override
            public void paint(Graphics2D g, int width, int height) {
                throw new IllegalStateException("the drawing failed");
            }
        };
    }
}
