package io.ratatosk.bench.sim.cli;

import io.ratatosk.bench.sim.OutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/** What the simulator's charts share: a PNG or SVG file chosen by its extension, and the short name of a trace. */
final class ChartFile {
    private ChartFile() {
    }

    /**
     * Whether {@code file} asks for SVG (else PNG); refuses any other extension, naming {@code what} the file is for.
     * Also puts AWT in headless mode, which drawing needs on a machine without a display.
     */
    static boolean isSvg(Path file, String what) {
        // "/" has no file name: a NullPointerException's stack trace, not this refusal
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean svg = name.endsWith(".svg");
        if (!svg && !name.endsWith(".png")) {
            throw new IllegalArgumentException(what + " file must end in .png or .svg: " + file);
        }
        System.setProperty("java.awt.headless", "true");
        return svg;
    }

    /**
     * Writes {@code chart} to {@code file} as SVG or PNG, whole or not at all ({@link OutputFile#replace}): written in
     * place, a drawing that failed or a run stopped while it wrote (Ctrl-C) left a cut or empty chart over the one there
     * before, under the name asked for.
     */
    static void save(Chart<?, ?> chart, Path file, boolean svg) throws IOException {
        OutputFile.replace(file, own -> {
            try (OutputStream out = Files.newOutputStream(own)) {
                if (svg) {
                    VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
                } else {
                    BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
                }
            }
        });
    }

    /** A trace's file name without its folder and extensions: {@code lirs/cs.trace.gz} is {@code cs}. */
    static String shortName(String trace) {
        String s = trace.substring(trace.lastIndexOf('/') + 1);
        int dot = s.indexOf('.');
        return dot > 0 ? s.substring(0, dot) : s;
    }
}
