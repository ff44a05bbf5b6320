package io.ratatosk.it.lifecycle;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Locale;

/**
 * How long and with what the lifecycle model test runs, from system properties (Surefire passes
 * {@code mvn -D...} through to the test JVM):
 * <ul>
 *   <li>{@code ratatosk.soak}: total duration, {@code 90}, {@code 90s}, {@code 10m}, {@code 2h} (default 60s);</li>
 *   <li>{@code ratatosk.seed}: the master seed to replay (decimal or 0x hex; default random);</li>
 *   <li>{@code ratatosk.scenario}: run only this scenario of the seed (default: scenarios 0, 1, ... until the time is up);</li>
 *   <li>{@code ratatosk.threads}: worker threads (default 4); with 1 and the evictor off a replay is exact;</li>
 *   <li>{@code ratatosk.op_timeout}: the longest one operation may take before the run counts as hung (default 30s);</li>
 *   <li>{@code ratatosk.skip}: what to leave out, see {@link Skips} (default nothing).</li>
 * </ul>
 */
record RunSettings(Duration soak, long seed, int onlyScenario, int threads, Duration opTimeout, Skips skips) {
    static final String SOAK = "ratatosk.soak";
    static final String SEED = "ratatosk.seed";
    static final String SCENARIO = "ratatosk.scenario";
    static final String THREADS = "ratatosk.threads";
    static final String OP_TIMEOUT = "ratatosk.op_timeout";

    static RunSettings fromSystemProperties() {
        Duration soak = duration(SOAK, System.getProperty(SOAK, "60s"));
        String seedText = System.getProperty(SEED);
        long seed = seedText == null || seedText.isBlank() ? new SecureRandom().nextLong() : parseSeed(seedText.strip());
        int scenario = Integer.parseInt(System.getProperty(SCENARIO, "-1").strip());
        int threads = Integer.parseInt(System.getProperty(THREADS, "4").strip());
        if (threads < 1 || threads > 16) {
            throw new IllegalArgumentException(THREADS + " must be in [1, 16]: " + threads);
        }
        Duration opTimeout = duration(OP_TIMEOUT, System.getProperty(OP_TIMEOUT, "30s"));
        return new RunSettings(soak, seed, scenario, threads, opTimeout, Skips.parse(System.getProperty(Skips.PROPERTY, "")));
    }

    /** Parses {@code 90}, {@code 90s}, {@code 10m}, {@code 2h}. */
    static Duration duration(String property, String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (t.endsWith("h")) {
                return Duration.ofHours(Long.parseLong(t.substring(0, t.length() - 1).strip()));
            }
            if (t.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1).strip()));
            }
            if (t.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1).strip()));
            }
            return Duration.ofSeconds(Long.parseLong(t));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " must be a duration like 90s, 10m or 2h: " + text, e);
        }
    }

    private static long parseSeed(String text) {
        if (text.startsWith("0x") || text.startsWith("0X")) {
            return Long.parseUnsignedLong(text.substring(2), 16);
        }
        return Long.parseLong(text);
    }

    /** The -D flags that replay {@code scenario} of this run. */
    String replayFlags(int scenario) {
        return "-D" + SEED + "=" + seed + " -D" + SCENARIO + "=" + scenario + " -D" + THREADS + "=" + threads
            + (skips.none() ? "" : " -D" + Skips.PROPERTY + "=" + skipFlag());
    }

    private String skipFlag() {
        StringBuilder sb = new StringBuilder();
        skips.ops().forEach(op -> sb.append(op).append(','));
        sb.append(skips.links() ? "LINKS," : "").append(skips.farIds() ? "FAR_IDS," : "").append(skips.faults() ? "FAULTS," : "")
            .append(skips.errors() ? "ERRORS," : "").append(skips.slowReads() ? "SLOW_READS," : "").append(skips.borrow() ? "BORROW," : "")
            .append(skips.nvm() ? "NVM," : "");
        return sb.substring(0, sb.length() - 1);
    }

    /** A well-mixed seed for {@code (seed, index)} (SplitMix64 finalizer), so streams do not overlap. */
    static long mix(long seed, long index) {
        long z = seed + (index + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
