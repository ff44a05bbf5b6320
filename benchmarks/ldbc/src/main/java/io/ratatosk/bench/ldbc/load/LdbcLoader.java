package io.ratatosk.bench.ldbc.load;

import io.ratatosk.bench.ldbc.ProgressOutput;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.ldbc.store.Label;
import io.ratatosk.bench.ldbc.store.PropertyBatch;
import io.ratatosk.bench.ldbc.store.PropertyKey;
import io.ratatosk.bench.ldbc.store.RelType;
import io.ratatosk.bench.ldbc.store.StoreMeta;
import io.ratatosk.bench.ldbc.store.StoreWriter;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Loads an LDBC SNB data set ({@link LdbcDataSource}, files of {@link LdbcSchema}) into a
 * {@link GraphStore}: every node file, then every edge file. Strict: a missing file, a header that
 * is not LDBC's, a row with the wrong number of columns, a bad number, a duplicate id, an edge
 * whose end is not in the data or an edge that repeats another (the same pair twice in one
 * relationship's files; for knows, which has no direction, in either order) stops the load with an
 * error naming the file and line, and the half-written store is deleted (its completion marker is
 * only ever written by a finished load).
 */
public final class LdbcLoader {
    private final LdbcDataSource source;
    private final ProgressOutput progress;

    public LdbcLoader(LdbcDataSource source, ProgressOutput progress) {
        this.source = source;
        this.progress = progress;
    }

    /** Loads into {@code storeDir} through a page cache of {@code loadMemory} bytes of its own. */
    public StoreMeta load(Path storeDir, long loadMemory) throws IOException {
        // Whatever lay there stops looking complete before the input is even checked.
        if (java.nio.file.Files.isDirectory(storeDir)) {
            GraphStore.delete(storeDir);
        }
        List<String> nodeFiles = new ArrayList<>();
        List<String> edgeFiles = new ArrayList<>();
        for (LdbcSchema.NodeFile f : LdbcSchema.NODE_FILES) {
            nodeFiles.addAll(files(f.folder(), f.baseName()));
        }
        for (LdbcSchema.EdgeFile f : LdbcSchema.EDGE_FILES) {
            edgeFiles.addAll(files(f.folder(), f.baseName()));
        }
        long expectedNodes = 0;
        long totalBytes = 0;
        for (String f : nodeFiles) {
            expectedNodes += CsvRows.countRows(source.openCsv(f));
            totalBytes += source.csvSize(f);
        }
        for (String f : edgeFiles) {
            totalBytes += source.csvSize(f);
        }
        // The id index does not grow: it is sized for the nodes the update streams add too.
        expectedNodes += updateStreamNodes();
        String fingerprint = source.fingerprint();
        // No resident-page profile of the load: the runs decide whether they start warm (ldbc --restart).
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", Long.toString(loadMemory),
            "pagecache.warmup.enabled", "false"));
        try (PageCache cache = PageCache.open(config);
             StoreWriter writer = StoreWriter.create(storeDir, cache, expectedNodes);
             ProgressOutput.Task task = progress.task("load " + source.describe(), totalBytes, "MiB", 1 << 20)) {
            PropertyBatch batch = new PropertyBatch();
            for (LdbcSchema.NodeFile f : LdbcSchema.NODE_FILES) {
                for (String file : files(f.folder(), f.baseName())) {
                    loadNodes(writer, f, file, batch, task);
                }
            }
            int[] buckets = new int[Math.toIntExact(writer.nodeCount()) + 1];
            for (LdbcSchema.EdgeFile f : LdbcSchema.EDGE_FILES) {
                // An LDBC relationship should hold a pair at most once: a repeat is found twice by the queries.
                DuplicateEdges edges = new DuplicateEdges(f.type() == RelType.KNOWS);
                DuplicateEdges.Files where = new DuplicateEdges.Files();
                for (String file : files(f.folder(), f.baseName())) {
                    where.start(file, edges.rows());
                    loadEdges(writer, f, file, batch, task, edges);
                }
                warnOfRepeats(f, edges, where, Math.toIntExact(writer.nodeCount()), buckets);
            }
            StoreMeta meta = writer.finish(fingerprint);
            task.finished();
            return meta;
        }
    }

    /**
     * The nodes the data set's update streams add: their IU1, IU4, IU6 and IU7 lines (type 1, 4, 6 or 7 in the third
     * column). The id index was sized for the loaded nodes alone, and a run whose stream adds more than the half of
     * them its index had room for (an insert is refused past 75% of its slots) failed in the middle, the precheck having
     * passed, with "load it again with room for the updates", which no load could. A file that cannot be read whole is
     * counted as far as it can: the stream's own read (UpdateStreams) names its problem.
     */
    private long updateStreamNodes() throws IOException {
        long nodes = 0;
        for (String f : source.updateStreams()) {
            try (BoundedLineReader in = new BoundedLineReader(source.openUpdateStream(f), source.describeUpdateStream(f))) {
                String line;
                while ((line = in.readLine()) != null) {
                    int first = line.indexOf('|');
                    int second = first < 0 ? -1 : line.indexOf('|', first + 1);
                    int third = second < 0 ? -1 : line.indexOf('|', second + 1);
                    if (third > second) {
                        String type = line.substring(second + 1, third);
                        if (type.equals("1") || type.equals("4") || type.equals("6") || type.equals("7")) {
                            nodes++;
                        }
                    }
                }
            } catch (LdbcDataException e) {
                // counted up to the line UpdateStreams refuses
            }
        }
        return nodes;
    }

    private List<String> files(String folder, String baseName) throws IOException {
        List<String> files = source.csvFiles(folder, baseName);
        if (files.isEmpty()) {
            throw new LdbcDataException("missing LDBC file: " + source.describeCsv(folder + "/" + baseName + "_0_0.csv")
                + " (every file of the LDBC layout is needed: " + folder + "/" + baseName + "_*_*.csv)");
        }
        return files;
    }

    private void loadNodes(StoreWriter writer, LdbcSchema.NodeFile f, String file, PropertyBatch batch,
                           ProgressOutput.Task task) throws IOException {
        String name = source.describeCsv(file);
        List<PropertyKey> keys = f.keys();
        int dateColumn = keys.indexOf(PropertyKey.CREATION_DATE);
        long reported = 0;
        try (CsvRows rows = new CsvRows(source.openCsv(file), name, f.header())) {
            while (rows.next()) {
                long id = rows.number(0);
                batch.clear();
                if (dateColumn >= 0) {
                    batch.addLong(PropertyKey.CREATION_DATE, rows.number(dateColumn));
                }
                for (int c = 1; c < keys.size(); c++) {
                    PropertyKey key = keys.get(c);
                    if (c == dateColumn) {
                        continue;
                    }
                    if (key.isNumeric()) {
                        batch.addLong(key, rows.number(c));
                    } else {
                        batch.addString(key, rows.field(c));
                    }
                }
                int node;
                try {
                    node = writer.addNode(f.label(), id, batch);
                } catch (IllegalArgumentException e) {
                    throw rows.error(e.getMessage());
                }
                if (node == GraphStore.NONE) {
                    throw rows.error("duplicate " + LdbcSchema.typeName(f.label()) + " id " + id);
                }
                reported = report(task, rows, reported);
            }
            task.stepBy(rows.bytesRead() - reported);
        }
    }

    private void loadEdges(StoreWriter writer, LdbcSchema.EdgeFile f, String file, PropertyBatch batch,
                           ProgressOutput.Task task, DuplicateEdges edges) throws IOException {
        String name = source.describeCsv(file);
        long reported = 0;
        try (CsvRows rows = new CsvRows(source.openCsv(file), name, f.header())) {
            while (rows.next()) {
                int start = endpoint(writer, rows, 0, f.from(), f.header().get(0));
                int end = endpoint(writer, rows, 1, f.to(), f.header().get(1));
                batch.clear();
                if (f.property() != null) {
                    batch.addLong(f.property(), rows.number(2));
                }
                try {
                    writer.addRelationship(f.type(), start, end, batch);
                } catch (IllegalArgumentException e) {
                    throw rows.error(e.getMessage());
                }
                edges.add(start, end);
                reported = report(task, rows, reported);
            }
            task.stepBy(rows.bytesRead() - reported);
        }
    }

    /**
     * Says, on stderr whether quiet or not, how many rows of {@code f}'s files repeat an earlier row's pair, naming the
     * first and the line it repeats. They are loaded as the data set has them, not refused: a published data set that
     * holds some (older generators wrote a few friendships both ways) must still run, and its answers then are those
     * of the data as given; the warning says why they may differ from another system's that drops repeats.
     */
    private void warnOfRepeats(LdbcSchema.EdgeFile f, DuplicateEdges edges, DuplicateEdges.Files where, int nodes,
                               int[] buckets) throws IOException {
        DuplicateEdges.Repeat repeat = edges.find(nodes, buckets);
        if (repeat == null) {
            return;
        }
        String laterFile = where.file(repeat.later());
        String earlierFile = where.file(repeat.earlier());
        long[] later = row(f, laterFile, where.rowInFile(repeat.later()));
        long[] earlier = row(f, earlierFile, where.rowInFile(repeat.earlier()));
        String pair = f.header().get(0) + " " + later[1] + "|" + f.header().get(1) + " " + later[2];
        progress.warning("%s:%d: duplicate edge: %s repeats line %d%s%s; %,d row%s of %s repeat an earlier one, all"
                + " loaded as given: queries find each repeat again", source.describeCsv(laterFile), later[0], pair,
            earlier[0], earlierFile.equals(laterFile) ? "" : " of " + source.describeCsv(earlierFile),
            repeat.reversed() ? " (" + earlier[1] + "|" + earlier[2] + "): knows has no direction" : "",
            repeat.count(), repeat.count() == 1 ? "" : "s", f.baseName());
    }

    /** The error path: {line, first id, second id} of the {@code index}-th row of {@code file}, read again. */
    private long[] row(LdbcSchema.EdgeFile f, String file, int index) throws IOException {
        try (CsvRows rows = new CsvRows(source.openCsv(file), source.describeCsv(file), f.header())) {
            for (int i = 0; i <= index; i++) {
                if (!rows.next()) {
                    throw new IOException(source.describeCsv(file) + " changed during the load: it has no row " + (index + 1));
                }
            }
            return new long[] {rows.line(), rows.number(0), rows.number(1)};
        }
    }

    private static int endpoint(StoreWriter writer, CsvRows rows, int column, Label label, String columnName)
        throws IOException {
        long id = rows.number(column);
        int node = writer.nodeById(label, id);
        if (node == GraphStore.NONE) {
            throw rows.error("dangling edge: " + columnName + " " + id + " is no "
                + LdbcSchema.typeName(label).toLowerCase(java.util.Locale.ROOT) + " of the data set");
        }
        return node;
    }

    private static long report(ProgressOutput.Task task, CsvRows rows, long reported) {
        long read = rows.bytesRead();
        if (read - reported >= (1 << 20)) {
            task.stepBy(read - reported);
            return read;
        }
        return reported;
    }
}
