package io.ratatosk.nvm;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * Everything that shapes the emulated NVM tier, immutable and validated when built. A bad value
 * fails with an {@link IllegalArgumentException} whose message names the flag, the value and the
 * rule, for example {@code "pagecache.nvm.capacity must be at least one page (8192 bytes):
 * pagecache.nvm.capacity=4k"}.
 *
 * <p>{@link #from} reads the flags through a lookup function so that the central flag parser
 * ({@code PageCacheConfig}) can hand its values over without this module depending on it; the
 * page size comes from {@code pagecache.page_size}.
 */
public final class NvmDeviceConfig {
    public static final String PROFILE = "pagecache.nvm.profile";
    public static final String CAPACITY = "pagecache.nvm.capacity";
    public static final String DEVICES = "pagecache.nvm.devices";
    public static final String READ_LATENCY = "pagecache.nvm.read_latency";
    public static final String WRITE_LATENCY = "pagecache.nvm.write_latency";
    public static final String ENDURANCE = "pagecache.nvm.endurance";
    public static final String WRITE_POLICY = "pagecache.nvm.write_policy";
    public static final String WRITE_AWARE = "pagecache.nvm.write_aware";
    public static final String PREFETCH = "pagecache.nvm.prefetch";
    public static final String INJECT_LATENCY = "pagecache.nvm.inject_latency";
    public static final String REMAPPING = "pagecache.nvm.remapping";
    /** Not an NVM flag; named in messages about the page size this config was built for. */
    public static final String PAGE_SIZE = "pagecache.page_size";

    /** Every flag {@link #from} reads, for registration in the central parser. */
    public static final String[] FLAGS = {PROFILE, CAPACITY, DEVICES, READ_LATENCY, WRITE_LATENCY, ENDURANCE,
        WRITE_POLICY, WRITE_AWARE, PREFETCH, INJECT_LATENCY, REMAPPING};

    public static final NvmProfile DEFAULT_PROFILE = NvmProfile.NVME;
    public static final long DEFAULT_CAPACITY = 256L << 20;
    /** The dissertation's baseline ran one device; its tuned runs ten. */
    public static final int DEFAULT_DEVICES = 1;
    /** 002 section 4.4: flash endurance of 100K write cycles (Boboila and Desnoyers). */
    public static final long DEFAULT_ENDURANCE = 100_000;
    public static final int MAX_PREFETCH = 64;
    /** Start-gap's psi: writes between gap moves (Qureshi et al. use 100: 1% extra writes). */
    public static final int DEFAULT_GAP_INTERVAL = 100;
    /** Marks "no override" for the latency fields. */
    public static final long NO_OVERRIDE = -1;

    private final NvmProfile profile;
    private final long capacityBytes;
    private final int devices;
    private final long readLatencyOverrideNanos;
    private final long writeLatencyOverrideNanos;
    private final long endurance;
    private final int pageSize;
    private final boolean injectLatency;
    private final Remapping remapping;
    private final int gapInterval;
    private final WritePolicy writePolicy;
    private final boolean writeAware;
    private final int prefetch;

    private NvmDeviceConfig(Builder b) {
        if (b.pageSize <= 0) {
            throw refused(PAGE_SIZE, "be positive", b.pageSize);
        }
        this.profile = Objects.requireNonNull(b.profile, PROFILE);
        this.pageSize = b.pageSize;
        if (b.capacityBytes < b.pageSize) {
            throw refused(CAPACITY, "be at least one page (" + b.pageSize + " bytes)", b.capacityText(b.capacityBytes));
        }
        long slots = b.capacityBytes / b.pageSize;
        if (slots > Integer.MAX_VALUE - 1) {
            throw refused(CAPACITY, "hold at most " + (Integer.MAX_VALUE - 1) + " pages of " + b.pageSize + " bytes",
                b.capacityText(b.capacityBytes));
        }
        this.capacityBytes = b.capacityBytes;
        if (b.devices < 1) {
            throw refused(DEVICES, "be at least 1", b.devices);
        }
        if (b.devices > slots) {
            throw refused(DEVICES, "not exceed the number of NVM slots (capacity / page size = " + slots + ")",
                b.devices);
        }
        this.devices = b.devices;
        this.readLatencyOverrideNanos = checkOverride(READ_LATENCY, b.readLatencyOverrideNanos);
        this.writeLatencyOverrideNanos = checkOverride(WRITE_LATENCY, b.writeLatencyOverrideNanos);
        if (b.endurance < 1) {
            throw refused(ENDURANCE, "be at least 1 write per slot", b.endurance);
        }
        this.endurance = b.endurance;
        this.injectLatency = b.injectLatency;
        this.remapping = Objects.requireNonNull(b.remapping, REMAPPING);
        if (b.gapInterval < 1) {
            throw new IllegalArgumentException("start-gap interval must be at least 1 write: gapInterval=" + b.gapInterval);
        }
        this.gapInterval = b.gapInterval;
        this.writePolicy = Objects.requireNonNull(b.writePolicy, WRITE_POLICY);
        this.writeAware = b.writeAware;
        if (b.prefetch < 0 || b.prefetch > MAX_PREFETCH) {
            throw refused(PREFETCH, "be in [0, " + MAX_PREFETCH + "]", b.prefetch);
        }
        this.prefetch = b.prefetch;
    }

    private static long checkOverride(String flag, long nanos) {
        if (nanos < 0 && nanos != NO_OVERRIDE) {
            throw refused(flag, "not be negative", nanos);
        }
        return nanos;
    }

    private static IllegalArgumentException refused(String flag, String rule, Object value) {
        return new IllegalArgumentException(flag + " must " + rule + ": " + flag + "=" + value);
    }

    public static Builder builder(int pageSize) {
        return new Builder(pageSize);
    }

    /**
     * Builds a config from flag values; {@code flagValueOrNull} returns a flag's raw string, or null
     * when it is not set (its default applies). Values are parsed as documented in docs/nvm.md:
     * sizes take k, m, g; latencies are nanoseconds, or take ns, us, ms.
     */
    public static NvmDeviceConfig from(Function<String, String> flagValueOrNull, int pageSize) {
        Builder b = builder(pageSize);
        String v;
        if ((v = flagValueOrNull.apply(PROFILE)) != null) {
            String value = v;
            b.profile(NvmProfile.fromFlagValue(v).orElseThrow(
                () -> refused(PROFILE, "be one of " + NvmProfile.accepted(), value)));
        }
        if ((v = flagValueOrNull.apply(CAPACITY)) != null) {
            b.capacityBytes(parseSize(CAPACITY, v));
            b.capacityText = v;
        }
        if ((v = flagValueOrNull.apply(DEVICES)) != null) {
            b.devices(parseInt(DEVICES, v));
        }
        if ((v = flagValueOrNull.apply(READ_LATENCY)) != null) {
            b.readLatencyNanos(parseNanos(READ_LATENCY, v));
        }
        if ((v = flagValueOrNull.apply(WRITE_LATENCY)) != null) {
            b.writeLatencyNanos(parseNanos(WRITE_LATENCY, v));
        }
        if ((v = flagValueOrNull.apply(ENDURANCE)) != null) {
            b.endurance(parseLong(ENDURANCE, v));
        }
        if ((v = flagValueOrNull.apply(WRITE_POLICY)) != null) {
            b.writePolicy(parseEnum(WRITE_POLICY, v, WritePolicy.values(), WritePolicy::flagValue));
        }
        if ((v = flagValueOrNull.apply(WRITE_AWARE)) != null) {
            b.writeAware(parseBoolean(WRITE_AWARE, v));
        }
        if ((v = flagValueOrNull.apply(PREFETCH)) != null) {
            b.prefetch(parseInt(PREFETCH, v));
        }
        if ((v = flagValueOrNull.apply(INJECT_LATENCY)) != null) {
            b.injectLatency(parseBoolean(INJECT_LATENCY, v));
        }
        if ((v = flagValueOrNull.apply(REMAPPING)) != null) {
            b.remapping(parseEnum(REMAPPING, v, Remapping.values(), Remapping::flagValue));
        }
        return b.build();
    }

    // ---- value parsing -------------------------------------------------------------------------

    /** A size in bytes: digits with an optional k, m or g (binary multiples). */
    static long parseSize(String flag, String raw) {
        String v = raw.trim().toLowerCase(Locale.ROOT);
        int shift = 0;
        if (!v.isEmpty()) {
            char unit = v.charAt(v.length() - 1);
            shift = unit == 'k' ? 10 : unit == 'm' ? 20 : unit == 'g' ? 30 : 0;
            if (shift != 0) {
                v = v.substring(0, v.length() - 1);
            }
        }
        long n = parseDigits(flag, v, raw, "be a size in bytes with an optional k, m or g");
        if (n > (Long.MAX_VALUE >> shift)) {
            throw refused(flag, "be a size below 2^63 bytes", raw);
        }
        return n << shift;
    }

    /** A latency in nanoseconds: digits with an optional ns, us or ms. */
    static long parseNanos(String flag, String raw) {
        String v = raw.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (v.endsWith("ns")) {
            v = v.substring(0, v.length() - 2);
        } else if (v.endsWith("us")) {
            unit = 1_000;
            v = v.substring(0, v.length() - 2);
        } else if (v.endsWith("ms")) {
            unit = 1_000_000;
            v = v.substring(0, v.length() - 2);
        }
        long n = parseDigits(flag, v, raw, "be a non-negative latency in nanoseconds, optionally with ns, us or ms");
        if (n > Long.MAX_VALUE / unit) {
            throw refused(flag, "be a latency below 2^63 ns", raw);
        }
        return n * unit;
    }

    private static long parseDigits(String flag, String digits, String raw, String rule) {
        String d = digits.trim();
        if (d.startsWith("-") && d.length() > 1 && d.substring(1).chars().allMatch(Character::isDigit)) {
            throw refused(flag, "not be negative", raw);
        }
        if (d.isEmpty() || !d.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw refused(flag, rule, raw);
        }
        try {
            return Long.parseLong(d);
        } catch (NumberFormatException e) {
            throw refused(flag, rule + " that fits in 63 bits", raw);
        }
    }

    static long parseLong(String flag, String raw) {
        return parseDigits(flag, raw, raw, "be a non-negative whole number");
    }

    static int parseInt(String flag, String raw) {
        long n = parseDigits(flag, raw, raw, "be a non-negative whole number");
        if (n > Integer.MAX_VALUE) {
            throw refused(flag, "be at most " + Integer.MAX_VALUE, raw);
        }
        return (int) n;
    }

    static boolean parseBoolean(String flag, String raw) {
        String v = raw.trim().toLowerCase(Locale.ROOT);
        if (v.equals("true")) {
            return true;
        }
        if (v.equals("false")) {
            return false;
        }
        throw refused(flag, "be true or false", raw);
    }

    static <E> E parseEnum(String flag, String raw, E[] values, Function<E, String> name) {
        String v = raw.trim().toLowerCase(Locale.ROOT);
        StringBuilder accepted = new StringBuilder();
        for (E e : values) {
            if (name.apply(e).equals(v)) {
                return e;
            }
            accepted.append(accepted.length() == 0 ? "" : ", ").append(name.apply(e));
        }
        throw refused(flag, "be one of " + accepted, raw);
    }

    // ---- accessors -----------------------------------------------------------------------------

    public NvmProfile profile() {
        return profile;
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    /** Logical slots (pages) the tier can hold: capacity / page size. */
    public int slots() {
        return (int) (capacityBytes / pageSize);
    }

    public int devices() {
        return devices;
    }

    public int pageSize() {
        return pageSize;
    }

    /** Modeled latency of one page read: the override if set, else the profile's figure. */
    public long readLatencyNanos() {
        return readLatencyOverrideNanos != NO_OVERRIDE ? readLatencyOverrideNanos : profile.readPageNanos(pageSize);
    }

    /** Modeled latency of one page write: the override if set, else the profile's figure. */
    public long writeLatencyNanos() {
        return writeLatencyOverrideNanos != NO_OVERRIDE ? writeLatencyOverrideNanos : profile.writePageNanos(pageSize);
    }

    public long readLatencyOverrideNanos() {
        return readLatencyOverrideNanos;
    }

    public long writeLatencyOverrideNanos() {
        return writeLatencyOverrideNanos;
    }

    public long endurance() {
        return endurance;
    }

    public boolean injectLatency() {
        return injectLatency;
    }

    public Remapping remapping() {
        return remapping;
    }

    public int gapInterval() {
        return gapInterval;
    }

    public WritePolicy writePolicy() {
        return writePolicy;
    }

    /** Parsed and kept for the page cache's write-aware eviction (ARI); the tier itself ignores it. */
    public boolean writeAware() {
        return writeAware;
    }

    /** Parsed and kept for prefetching (phase 2); the tier does not prefetch yet. */
    public int prefetch() {
        return prefetch;
    }

    /** A builder that starts from this config. */
    public Builder toBuilder() {
        return builder(pageSize).profile(profile).capacityBytes(capacityBytes).devices(devices)
            .readLatencyNanos(readLatencyOverrideNanos).writeLatencyNanos(writeLatencyOverrideNanos)
            .endurance(endurance).injectLatency(injectLatency).remapping(remapping).gapInterval(gapInterval)
            .writePolicy(writePolicy).writeAware(writeAware).prefetch(prefetch);
    }

    @Override
    public String toString() {
        return PROFILE + "=" + profile.flagValue() + " " + CAPACITY + "=" + capacityBytes + " " + DEVICES + "=" + devices
            + " read=" + readLatencyNanos() + "ns write=" + writeLatencyNanos() + "ns " + ENDURANCE + "=" + endurance
            + " " + WRITE_POLICY + "=" + writePolicy.flagValue() + " " + REMAPPING + "=" + remapping.flagValue()
            + " " + INJECT_LATENCY + "=" + injectLatency + " page=" + pageSize;
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private final int pageSize;
        private NvmProfile profile = DEFAULT_PROFILE;
        private long capacityBytes = DEFAULT_CAPACITY;
        private String capacityText;
        private int devices = DEFAULT_DEVICES;
        private long readLatencyOverrideNanos = NO_OVERRIDE;
        private long writeLatencyOverrideNanos = NO_OVERRIDE;
        private long endurance = DEFAULT_ENDURANCE;
        private boolean injectLatency = true;
        private Remapping remapping = Remapping.START_GAP;
        private int gapInterval = DEFAULT_GAP_INTERVAL;
        private WritePolicy writePolicy = WritePolicy.WRITE_BACK;
        private boolean writeAware;
        private int prefetch;

        private Builder(int pageSize) {
            this.pageSize = pageSize;
        }

        private Object capacityText(long bytes) {
            return capacityText != null ? capacityText : bytes;
        }

        public Builder profile(NvmProfile profile) {
            this.profile = profile;
            return this;
        }

        public Builder capacityBytes(long capacityBytes) {
            this.capacityBytes = capacityBytes;
            this.capacityText = null;
            return this;
        }

        /** Capacity as a number of page-sized slots. */
        public Builder slots(int slots) {
            return capacityBytes((long) slots * pageSize);
        }

        public Builder devices(int devices) {
            this.devices = devices;
            return this;
        }

        /** Overrides the profile's page read latency; {@link #NO_OVERRIDE} restores it. */
        public Builder readLatencyNanos(long nanos) {
            this.readLatencyOverrideNanos = nanos;
            return this;
        }

        /** Overrides the profile's page write latency; {@link #NO_OVERRIDE} restores it. */
        public Builder writeLatencyNanos(long nanos) {
            this.writeLatencyOverrideNanos = nanos;
            return this;
        }

        public Builder endurance(long endurance) {
            this.endurance = endurance;
            return this;
        }

        public Builder injectLatency(boolean injectLatency) {
            this.injectLatency = injectLatency;
            return this;
        }

        public Builder remapping(Remapping remapping) {
            this.remapping = remapping;
            return this;
        }

        /** Start-gap's psi: host writes between two gap moves. */
        public Builder gapInterval(int gapInterval) {
            this.gapInterval = gapInterval;
            return this;
        }

        public Builder writePolicy(WritePolicy writePolicy) {
            this.writePolicy = writePolicy;
            return this;
        }

        public Builder writeAware(boolean writeAware) {
            this.writeAware = writeAware;
            return this;
        }

        public Builder prefetch(int prefetch) {
            this.prefetch = prefetch;
            return this;
        }

        public NvmDeviceConfig build() {
            return new NvmDeviceConfig(this);
        }
    }
}
