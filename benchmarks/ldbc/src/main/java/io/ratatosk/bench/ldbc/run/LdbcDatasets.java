package io.ratatosk.bench.ldbc.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.ratatosk.bench.ldbc.ProgressOutput;
import io.ratatosk.bench.ldbc.gen.LdbcGenerator;
import io.ratatosk.bench.ldbc.load.LdbcDataSource;
import io.ratatosk.bench.ldbc.load.LdbcLoader;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.ldbc.store.StoreMeta;
import io.ratatosk.bench.sim.DiskSpace;
import io.ratatosk.bench.sim.JsonErrors;
import io.ratatosk.bench.sim.OutputFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Turns {@code --data} into a loaded store, reusing what earlier runs left in the data cache
 * folder: {@code sample} (the shipped sample), {@code generated:SCALE} (generated once into
 * {@code scale-SCALE-seed-N-gVERSION/csv}, renamed into place only when complete) or a folder of LDBC CSV.
 * A store is reused when its {@code store.meta} (written last by a finished load) names the same
 * input; otherwise it is loaded again.
 */
public final class LdbcDatasets {
    /** Page cache memory the loader uses. */
    static final long LOAD_MEMORY = 256L << 20;

    /**
     * What one unit of scale takes on disk, about: its CSV, the loaded store and the store's copy that the update stream
     * writes to. At scale 1 (seed 42) these are 111, 261 and 261 MiB; the store grows a little faster than the scale
     * (2.8 GiB at scale 10, docs/ldbc.md), so a unit is taken as 700 MiB.
     */
    static final long BYTES_PER_SCALE = 700L << 20;

    /** A data set ready to run on. */
    public record Prepared(String name, LdbcDataSource source, Path storeDir, StoreMeta meta) {
    }

    private LdbcDatasets() {
    }

    public static Prepared prepare(String spec, Path dataCache, long seed, boolean reload, ProgressOutput progress)
        throws IOException {
        String s = spec.strip();
        if (s.equals("sample")) {
            return load("sample", LdbcDataSource.sample(), dataCache.resolve("sample").resolve("store"), reload, progress);
        }
        if (generated(s)) {
            double asked = scale(s);
            // The generator makes a whole number of persons: scales that round to one count are one graph, one entry
            double scale = graphScale(asked);
            if (scale != asked) {
                progress.note("%s is %,d persons, the graph of generated:%s", s, personsAt(asked), scaleText(scale));
            }
            Path root = dataCache.resolve("scale-" + scaleText(scale) + "-seed-" + seed + "-g" + LdbcGenerator.VERSION);
            Path csv = root.resolve("csv");
            if (reload || !Files.isDirectory(csv)) {
                // before the generator's first byte: a disk filled to the last one harms all else on the machine
                DiskSpace.require(dataCache, (long) (scale * BYTES_PER_SCALE), "--data " + s + " (CSV, store and its"
                    + " updated copy: about " + (BYTES_PER_SCALE >> 20) + " MiB per unit of scale; --data-cache to put"
                    + " them elsewhere)");
                generate(scale, seed, csv, progress);
            }
            return load("generated:" + scaleText(scale) + " (seed " + seed + ")", LdbcDataSource.directory(csv),
                root.resolve("store"), reload, progress);
        }
        Path dir = csvFolder(spec);
        return load(dir.toString(), LdbcDataSource.directory(dir),
            dataCache.resolve("dir-" + shortHash(dir.toString())).resolve("store"), reload, progress);
    }

    /**
     * Refuses a {@code --data} that cannot be prepared, before anything is generated or loaded: a scale that is not
     * one, or a folder that is not there. What the folder holds is read by the loader, which names a missing file.
     */
    public static void check(String spec) {
        String s = spec.strip();
        if (s.equals("sample")) {
            return;
        }
        if (generated(s)) {
            scale(s);
        } else {
            csvFolder(spec);
        }
    }

    /**
     * The files a folder {@code spec} holds (its CSV, parameters and update streams), which no output of the run may
     * overwrite; none for the sample and generated data. Call after {@link #check}.
     */
    public static List<Path> inputFiles(String spec) throws IOException {
        String s = spec.strip();
        if (s.equals("sample") || generated(s)) {
            return List.of();
        }
        Path root = csvFolder(spec);
        List<Path> files = new ArrayList<>();
        // The folders a data set reads, not a walk: --data / would walk the whole file system.
        for (String folder : List.of("static", "dynamic", "vanilla/static", "vanilla/dynamic", "substitution_parameters",
            "update_streams")) {
            Path dir = root.resolve(folder);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> list = Files.list(dir)) {
                    list.filter(Files::isRegularFile).forEach(files::add);
                }
            }
        }
        return files;
    }

    /**
     * Whether {@code s} (stripped) asks for generated data: {@code generated}, {@code generated:SCALE}, or a word that
     * starts so and names no folder ({@code generatedx}, refused as a misspelt scale). A folder of CSV whose name starts
     * so ({@code --data generated-sf1}) is a folder: it was refused, "write generated:SCALE".
     */
    private static boolean generated(String s) {
        return s.equals("generated") || s.startsWith("generated:")
            || s.startsWith("generated") && !Files.isDirectory(Path.of(s));
    }

    /** The folder of LDBC CSV files {@code spec} names; refused if it is not one. */
    private static Path csvFolder(String spec) {
        if (spec.isBlank()) { // a script's unset variable: read as the current folder, and its files looked for there
            throw new IllegalArgumentException("--data '" + spec + "' names no data set; give sample, generated:SCALE or"
                + " a folder of LDBC CSV files ('.' for the current one)");
        }
        Path dir = Path.of(spec.strip()).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--data " + spec + (Files.exists(dir) ? ": not a folder" : ": no such folder")
                + " (expected sample, generated:SCALE"
                + " or a folder of LDBC CSV files)");
        }
        return dir;
    }

    private static double scale(String spec) {
        if (spec.equals("generated")) {
            return 1;
        }
        if (!spec.startsWith("generated:")) {
            throw new IllegalArgumentException("--data " + spec + ": write generated:SCALE, e.g. generated:1");
        }
        String number = spec.substring("generated:".length()).strip();
        // Digits and a point only: Double.parseDouble also read 1f and 1d as 1, 0x1p-9 as 1/512, 2e-3 as 0.002.
        if (number.matches("[0-9]+(\\.[0-9]*)?|\\.[0-9]+")) {
            double scale = Double.parseDouble(number);
            if (scale > 0 && scale <= 10_000) {
                if (personsAt(scale) < LdbcGenerator.MIN_PERSONS) {
                    // generated:0.00001 ran the smallest graph under a name of its own, as if it were another
                    throw new IllegalArgumentException("--data " + spec + ": a scale of " + number + " is "
                        + personsAt(scale) + " persons, fewer than the smallest graph's "
                        + LdbcGenerator.MIN_PERSONS + " (generated:" + scaleText((double) LdbcGenerator.MIN_PERSONS
                        / LdbcGenerator.PERSONS_AT_SCALE_1) + ")");
                }
                return scale;
            }
        }
        throw new IllegalArgumentException("--data " + spec + ": the scale must be a number in (0, 10000], e.g."
            + " generated:1 (about " + LdbcGenerator.PERSONS_AT_SCALE_1 + " persons)");
    }

    private static long personsAt(double scale) {
        return Math.round(scale * LdbcGenerator.PERSONS_AT_SCALE_1);
    }

    /** The scale of the graph {@code scale} makes: its persons' count over scale 1's (generated:0.00204 is 0.002). */
    static double graphScale(double scale) {
        return (double) personsAt(scale) / LdbcGenerator.PERSONS_AT_SCALE_1;
    }

    static String scaleText(double scale) {
        return scale == Math.rint(scale) ? Long.toString((long) scale) : Double.toString(scale).toLowerCase(Locale.ROOT);
    }

    /** Generates into a temporary folder and renames it to {@code csv} only when it is complete. */
    private static void generate(double scale, long seed, Path csv, ProgressOutput progress) throws IOException {
        Path tmp = csv.resolveSibling("csv.partial");
        OutputFile.deleteTree(tmp);
        OutputFile.deleteTree(csv);
        Files.createDirectories(tmp);
        new LdbcGenerator(scale, seed, progress).write(tmp);
        Files.move(tmp, csv, StandardCopyOption.ATOMIC_MOVE);
    }

    private static Prepared load(String name, LdbcDataSource source, Path storeDir, boolean reload,
                                 ProgressOutput progress) throws IOException {
        String fingerprint = source.fingerprint();
        Optional<StoreMeta> meta;
        try {
            meta = GraphStore.readMeta(storeDir);
        } catch (JsonProcessingException e) { // another version's, or edited: the store is not one this run can trust
            progress.line("%s cannot be read (%s); loading the store again", storeDir.resolve(GraphStore.META_FILE),
                JsonErrors.oneLine(e));
            meta = Optional.empty();
        }
        if (!reload && meta.isPresent() && meta.get().formatVersion() == GraphStore.FORMAT_VERSION
            && fingerprint.equals(meta.get().source())) {
            // Its files too: one deleted or cut since (a copy of the data cache stopped partway) failed every later run
            // with "damaged" or "not mapped", however often it was run again, where a load mends it.
            Optional<String> damage = GraphStore.damage(storeDir, meta.get());
            if (damage.isEmpty()) {
                progress.line("using the store loaded earlier in %s", storeDir);
                return new Prepared(name, source, storeDir, meta.get());
            }
            progress.line("the store loaded earlier in %s is damaged (%s); loading it again", storeDir, damage.get());
        }
        long start = System.nanoTime();
        StoreMeta loaded = new LdbcLoader(source, progress).load(storeDir, LOAD_MEMORY);
        progress.line("loaded %,d nodes and %,d relationships into %s (%.1f MiB) in %.1f s", loaded.nodes(),
            loaded.relationships(), storeDir, GraphStore.sizeOnDisk(storeDir) / 1048576.0,
            (System.nanoTime() - start) / 1e9);
        return new Prepared(name, source, storeDir, loaded);
    }

    private static String shortHash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
