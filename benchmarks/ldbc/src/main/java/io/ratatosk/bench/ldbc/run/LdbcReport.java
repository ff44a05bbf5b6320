package io.ratatosk.bench.ldbc.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.ldbc.update.UpdateType;
import io.ratatosk.pagecache.PageCacheStats;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** The runner's text report (per run, and a summary table) and its {@code summary.json}. */
public final class LdbcReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** What the whole invocation was. */
    public record Header(String command, String data, long storeBytes, int threads, Budget warmup, Budget measured,
                         long seed, String swap) {
    }

    private LdbcReport() {
    }

    /** The block printed after each run. */
    public static String run(RunResult r) {
        StringBuilder s = new StringBuilder();
        PageCacheStats m = r.measured();
        s.append(String.format(Locale.ROOT, "%s @ %s: %s cache (%,d frames) for a %s store, %d thread%s%n",
            r.policy(), r.cacheSpec(), mib(r.cacheBytes()), r.frames(), mib(r.storeBytes()), r.threads(),
            r.threads() == 1 ? "" : "s"));
        s.append(String.format(Locale.ROOT, "  throughput %,.1f ops/s (%,d ops in %.2f s, after %,d warm-up ops)%n",
            r.opsPerSecond(), r.operations(), r.seconds(), r.warmupOperations()));
        s.append(String.format(Locale.ROOT, "  hit ratio %s (%,d hits, %,d faults); whole run from cold %s%n",
            percent(m.hitRatio()), m.hits(), m.faults(), percent(r.wholeRun().hitRatio())));
        s.append(String.format(Locale.ROOT,
            "  evictions %,d (background %,d, cooperative %,d), eviction writes %,d, flushed pages %,d, read %s,"
                + " written %s%n", m.evictions(), m.backgroundEvictions(), m.cooperativeEvictions(), m.evictionWrites(),
            m.flushedPages(), mib(m.bytesRead()), mib(m.bytesWritten())));
        if (r.updateStream() > 0) {
            s.append(String.format(Locale.ROOT, "  updates %,d of the stream's %,d applied (warm-up included)%n",
                r.updates(), r.updateStream()));
        }
        NvmCounters n = r.nvm();
        if (n != null) {
            s.append(String.format(Locale.ROOT,
                "  nvm: swap-ins %,d, file reads %,d, swap-outs %,d, clean absorbed %,d, write-backs %,d,"
                    + " nvm evictions %,d, bypasses %,d; device reads %,d, writes %,d, modeled %.1f ms,"
                    + " injected %.1f ms, energy %.3f J, max wear %,d%n",
                n.swapIns(), n.fileReads(), n.swapOuts(), n.cleanEvictionsAbsorbed(), n.writeBacks(), n.nvmEvictions(),
                n.bypasses(), n.deviceReads(), n.deviceWrites(), n.modeledDeviceNanos() / 1e6,
                n.injectedNanos() / 1e6, n.energyJoules(), n.wearMax()));
        }
        s.append(String.format(Locale.ROOT, "  %-6s %9s %10s %10s %10s %10s %11s%n", "query", "count", "p50 us", "p95 us",
            "p99 us", "max us", "pages/exec"));
        for (QueryType t : QueryType.values()) {
            Histogram h = r.latencies().get(t);
            if (h == null) {
                continue;
            }
            s.append(String.format(Locale.ROOT, "  %-6s %,9d %,10.1f %,10.1f %,10.1f %,10.1f %,11.1f%n", t,
                h.getTotalCount(), micros(h.getValueAtPercentile(50)), micros(h.getValueAtPercentile(95)),
                micros(h.getValueAtPercentile(99)), micros(h.getMaxValue()), pagesPerExecution(r, t)));
        }
        for (UpdateType t : UpdateType.values()) {
            Histogram h = r.updateLatencies().get(t);
            if (h == null) {
                continue;
            }
            s.append(String.format(Locale.ROOT, "  %-6s %,9d %,10.1f %,10.1f %,10.1f %,10.1f%n", t, h.getTotalCount(),
                micros(h.getValueAtPercentile(50)), micros(h.getValueAtPercentile(95)),
                micros(h.getValueAtPercentile(99)), micros(h.getMaxValue())));
        }
        return s.toString();
    }

    /** The table after all runs, one line per run. */
    public static String summary(Header header, List<RunResult> runs) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "LDBC reads on %s: store %s, %d thread%s, measured %s after a warm-up of %s%n",
            header.data(), mib(header.storeBytes()), header.threads(), header.threads() == 1 ? "" : "s",
            header.measured(), header.warmup()));
        int width = Math.max(24, runs.stream().mapToInt(r -> r.policy().length()).max().orElse(0) + 2);
        s.append(String.format(Locale.ROOT, "%-20s %-" + width + "s %12s %8s %12s %12s %12s %12s %10s%n", "cache",
            "policy", "ops/s", "hit %", "faults", "bg evict", "coop evict", "evict writes", "MiB read"));
        for (RunResult r : runs) {
            PageCacheStats m = r.measured();
            s.append(String.format(Locale.ROOT, "%-20s %-" + width + "s %,12.1f %8s %,12d %,12d %,12d %,12d %,10.1f%n",
                r.cacheSpec() + " (" + mib(r.cacheBytes()) + ")", r.policy(), r.opsPerSecond(),
                percent(m.hitRatio()), m.faults(), m.backgroundEvictions(), m.cooperativeEvictions(),
                m.evictionWrites(), m.bytesRead() / 1048576.0));
        }
        for (RunResult r : runs) {
            if (!r.measured().policyState().isEmpty()) {
                s.append(String.format(Locale.ROOT, "%s @ %s, at the end: %s%n", r.policy(), r.cacheSpec(),
                    r.measured().policyState()));
            }
        }
        return s.toString();
    }

    /** Writes {@code summary.json}: the header's fields, then {@code runs}. */
    public static void writeJson(Path file, Header header, List<RunResult> runs) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("command", header.command());
        root.put("data", header.data());
        root.put("storeBytes", header.storeBytes());
        root.put("threads", header.threads());
        root.put("warmup", header.warmup().toString());
        root.put("measured", header.measured().toString());
        root.put("seed", header.seed());
        root.put("swap", header.swap());
        ArrayNode array = root.putArray("runs");
        for (RunResult r : runs) {
            PageCacheStats m = r.measured();
            ObjectNode o = array.addObject();
            o.put("policy", r.policy());
            if (!m.policyState().isEmpty()) {
                o.put("policyState", m.policyState());
            }
            o.put("cacheSpec", r.cacheSpec());
            o.put("cacheBytes", r.cacheBytes());
            o.put("storeBytes", r.storeBytes());
            o.put("frames", r.frames());
            o.put("threads", r.threads());
            o.put("warmupOperations", r.warmupOperations());
            o.put("operations", r.operations());
            o.put("seconds", round(r.seconds(), 3));
            o.put("opsPerSecond", round(r.opsPerSecond(), 1));
            o.put("hitRatio", round(m.hitRatio(), 6));
            o.put("hits", m.hits());
            o.put("faults", m.faults());
            o.put("wholeRunHitRatio", round(r.wholeRun().hitRatio(), 6));
            o.put("wholeRunPins", r.wholeRun().hits() + r.wholeRun().faults());
            o.put("evictions", m.evictions());
            o.put("backgroundEvictions", m.backgroundEvictions());
            o.put("cooperativeEvictions", m.cooperativeEvictions());
            o.put("evictionWrites", m.evictionWrites());
            o.put("flushedPages", m.flushedPages());
            o.put("bytesRead", m.bytesRead());
            o.put("bytesWritten", m.bytesWritten());
            o.put("updates", r.updates());
            o.put("updateStream", r.updateStream());
            ObjectNode queries = o.putObject("queries");
            for (Map.Entry<QueryType, Histogram> e : r.latencies().entrySet()) {
                ObjectNode q = latency(queries.putObject(e.getKey().name()), e.getValue());
                q.put("pagesPerExecution", round(pagesPerExecution(r, e.getKey()), 1));
            }
            ObjectNode updates = o.putObject("updateLatencies");
            for (Map.Entry<UpdateType, Histogram> e : r.updateLatencies().entrySet()) {
                latency(updates.putObject(e.getKey().name()), e.getValue());
            }
            NvmCounters n = r.nvm();
            if (n != null) {
                ObjectNode nvm = o.putObject("nvm");
                nvm.put("swapIns", n.swapIns());
                nvm.put("fileReads", n.fileReads());
                nvm.put("swapOuts", n.swapOuts());
                nvm.put("cleanEvictionsAbsorbed", n.cleanEvictionsAbsorbed());
                nvm.put("writeBacks", n.writeBacks());
                nvm.put("nvmEvictions", n.nvmEvictions());
                nvm.put("bypasses", n.bypasses());
                nvm.put("deviceReads", n.deviceReads());
                nvm.put("deviceWrites", n.deviceWrites());
                nvm.put("modeledDeviceNanos", n.modeledDeviceNanos());
                nvm.put("injectedNanos", n.injectedNanos());
                nvm.put("energyJoules", round(n.energyJoules(), 6));
                nvm.put("wearMax", n.wearMax());
            }
        }
        JSON.writeValue(file.toFile(), root);
    }

    private static ObjectNode latency(ObjectNode q, Histogram h) {
        q.put("count", h.getTotalCount());
        q.put("meanMicros", round(h.getMean() / 1000, 1));
        q.put("p50Micros", round(micros(h.getValueAtPercentile(50)), 1));
        q.put("p95Micros", round(micros(h.getValueAtPercentile(95)), 1));
        q.put("p99Micros", round(micros(h.getValueAtPercentile(99)), 1));
        q.put("maxMicros", round(micros(h.getMaxValue()), 1));
        return q;
    }

    /** Mean page accesses (pins) per execution of {@code t} over the measured phase. */
    private static double pagesPerExecution(RunResult r, QueryType t) {
        long[] p = r.pins().get(t);
        return p == null || p[0] == 0 ? 0 : (double) p[1] / p[0];
    }

    /** {@code bytes} as the report says sizes: {@code 259.3 MiB}. */
    public static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    static String percent(double ratio) {
        return String.format(Locale.ROOT, "%.2f%%", 100 * ratio);
    }

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }

    private static BigDecimal round(double v, int places) {
        return Double.isFinite(v) ? BigDecimal.valueOf(v).setScale(places, RoundingMode.HALF_EVEN) : null;
    }
}
