package io.ratatosk.bench.ldbc.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ratatosk.bench.ldbc.query.Query;
import io.ratatosk.bench.ldbc.update.Update;
import io.ratatosk.bench.sim.OutputFile;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --dump-results FILE}: one JSON object per executed query, one per line,
 * {@code {"query": "IS3", "params": {"personId": 933}, "rows": [[...], ...]}}; parameter names as
 * in the substitution files, rows in the query's column and sort order, ids and dates as numbers,
 * booleans as booleans, strings as in the CSV, IC1's lists as arrays; and one line per executed update,
 * {@code {"update": "IU6", "params": {...}}}, among them in the order the operations took effect.
 * Thread-safe.
 */
public final class ResultDump implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final BufferedWriter out;
    private long lines;

    public ResultDump(Path file) throws IOException {
        checkName("the dump", file);
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    /**
     * Refuses a name that says the file is compressed: the dump is plain JSON lines, so results.jsonl.gz held plain text
     * under a gzip name (zcat refused it).
     *
     * @param option what named the file, for the message
     */
    public static void checkName(String option, Path file) {
        OutputFile.refuseCompressedName(option, file, "the dump is written as plain JSON lines");
    }

    /** The line for one query and its rows. */
    public static String line(Query q, List<List<Object>> rows) throws IOException {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("query", q.type().name());
        object.put("params", q.params());
        object.put("rows", rows);
        return JSON.writeValueAsString(object);
    }

    /** The line for one executed update: {@code {"update": "IU6", "params": {...}}}. */
    public static String line(Update u) throws IOException {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("update", u.type().name());
        object.put("params", u.params());
        return JSON.writeValueAsString(object);
    }

    public void write(Update u) throws IOException {
        String line = line(u);
        synchronized (this) {
            out.write(line);
            out.write('\n');
            lines++;
        }
    }

    public void write(Query q, List<List<Object>> rows) throws IOException {
        String line = line(q, rows);
        synchronized (this) {
            out.write(line);
            out.write('\n');
            lines++;
        }
    }

    public synchronized long lines() {
        return lines;
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
