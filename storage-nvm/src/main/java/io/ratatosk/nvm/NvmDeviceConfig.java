package io.ratatosk.nvm;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import io.ratatosk.core.config.FlagValueException;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheFlags;

/**
 * Everything that shapes the emulated NVM tier, immutable and validated when built. A bad value
 * fails with an {@link IllegalArgumentException} whose message names the flag, the value and the
 * rule, for example {@code "pagecache.nvm.capacity must be at least one page (8192 bytes):
 * pagecache.nvm.capacity=4k"}.
 *
 * <p>The flags are defined in {@link NvmFlags} and parsed and validated with the page cache's, by
 * {@link PageCacheConfig}; {@link #from(PageCacheConfig)} reads the parsed values. The
 * {@link Builder} checks the same rules again for code (tests, benchmarks) that builds a config
 * without flags, and throws {@link IllegalArgumentException} in the message form above.
 */
public final class NvmDeviceConfig {
    public static final String PROFILE = NvmFlags.PROFILE.name();
    public static final String CAPACITY = NvmFlags.CAPACITY.name();
    public static final String DEVICES = NvmFlags.DEVICES.name();
    public static final String READ_LATENCY = NvmFlags.READ_LATENCY.name();
    public static final String WRITE_LATENCY = NvmFlags.WRITE_LATENCY.name();
    public static final String ENDURANCE = NvmFlags.ENDURANCE.name();
    public static final String WRITE_POLICY = NvmFlags.WRITE_POLICY.name();
    public static final String WRITE_AWARE = NvmFlags.WRITE_AWARE.name();
    public static final String PREFETCH = NvmFlags.PREFETCH.name();
    public static final String INJECT_LATENCY = NvmFlags.INJECT_LATENCY.name();
    public static final String REMAPPING = NvmFlags.REMAPPING.name();
    /** Not an NVM flag; named in messages about the page size this config was built for. */
    public static final String PAGE_SIZE = PageCacheFlags.PAGE_SIZE.name();

    public static final NvmProfile DEFAULT_PROFILE = NvmProfile.NVME;
    public static final long DEFAULT_CAPACITY = 256L << 20;
    /** The dissertation's baseline ran one device; its tuned runs ten. */
    public static final int DEFAULT_DEVICES = 1;
    /** Fedorov (2016), section 4.4: flash endurance of 100K write cycles (Boboila and Desnoyers). */
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
        checkPageSize(b.pageSize);
        this.profile = notNull(PROFILE, b.profile, NvmFlags.PROFILES);
        this.pageSize = b.pageSize;
        if (b.capacityBytes < b.pageSize) {
            throw refused(CAPACITY, "be at least one page (" + b.pageSize + " bytes)", b.capacityBytes);
        }
        long slots = b.capacityBytes / b.pageSize;
        if (slots > NvmFlags.MAX_SLOTS) {
            throw refused(CAPACITY, "hold at most " + NvmFlags.MAX_SLOTS + " pages of " + b.pageSize + " bytes",
                b.capacityBytes);
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
        this.remapping = notNull(REMAPPING, b.remapping, NvmFlags.REMAPPINGS);
        if (b.gapInterval < 1) {
            throw new IllegalArgumentException("start-gap interval must be at least 1 write: gapInterval=" + b.gapInterval);
        }
        this.gapInterval = b.gapInterval;
        this.writePolicy = notNull(WRITE_POLICY, b.writePolicy, NvmFlags.WRITE_POLICIES);
        this.writeAware = b.writeAware;
        if (b.prefetch < 0 || b.prefetch > MAX_PREFETCH) {
            throw refused(PREFETCH, "be in [0, " + MAX_PREFETCH + "]", b.prefetch);
        }
        this.prefetch = b.prefetch;
    }

    /**
     * The page cache's own rule for its page size, from its flag: the builder took any positive size, so a tier
     * could be built for pages the page cache refuses, and at 1 GiB pages took 64 GiB of scratch buffers besides its
     * slots.
     */
    private static void checkPageSize(int pageSize) {
        try {
            PageCacheFlags.PAGE_SIZE.parse(Integer.toString(pageSize));
        } catch (FlagValueException e) {
            throw refused(PAGE_SIZE, "be " + PageCacheFlags.PAGE_SIZE.accepted(), pageSize);
        }
    }

    private static long checkOverride(String flag, long nanos) {
        if (nanos < 0 && nanos != NO_OVERRIDE) {
            throw refused(flag, "not be negative", nanos);
        }
        if (nanos > NvmFlags.MAX_LATENCY_NANOS) {
            // as the flag: a longer one overflows an injected wait's deadline (it never ends) and the modeled time
            throw refused(flag, "be at most 10s (" + NvmFlags.MAX_LATENCY_NANOS + " ns)", nanos);
        }
        return nanos;
    }

    /** A builder's null choice, refused as the flag refuses a value it does not know (it was a bare NullPointerException). */
    private static <T> T notNull(String flag, T choice, List<String> choices) {
        if (choice == null) {
            throw refused(flag, "be one of " + String.join(", ", choices), null);
        }
        return choice;
    }

    private static IllegalArgumentException refused(String flag, String rule, Object value) {
        return new IllegalArgumentException(flag + " must " + rule + ": " + flag + "=" + value);
    }

    public static Builder builder(int pageSize) {
        return new Builder(pageSize);
    }

    /**
     * The NVM settings of a page cache config: its {@code pagecache.nvm.*} flags, with slots of
     * {@code pagecache.page_size}. The config has already parsed and validated every flag, the rules
     * across flags included, so this does not fail.
     */
    public static NvmDeviceConfig from(PageCacheConfig config) {
        return builder(config.pageSize())
            .profile(NvmProfile.fromFlagValue(config.getString(PROFILE)).orElseThrow())
            .capacityBytes(config.getSize(CAPACITY))
            .devices(config.getInt(DEVICES))
            .readLatencyNanos(config.getDurationNanos(READ_LATENCY, NO_OVERRIDE))
            .writeLatencyNanos(config.getDurationNanos(WRITE_LATENCY, NO_OVERRIDE))
            .endurance(config.getInt(ENDURANCE))
            .writePolicy(byFlagValue(config.getString(WRITE_POLICY), WritePolicy.values(), WritePolicy::flagValue))
            .writeAware(config.getBoolean(WRITE_AWARE))
            .prefetch(config.getInt(PREFETCH))
            .injectLatency(config.getBoolean(INJECT_LATENCY))
            .remapping(byFlagValue(config.getString(REMAPPING), Remapping.values(), Remapping::flagValue))
            .build();
    }

    private static <E> E byFlagValue(String value, E[] values, Function<E, String> flagValue) {
        for (E e : values) {
            if (flagValue.apply(e).equals(value)) {
                return e;
            }
        }
        throw new IllegalStateException("no constant for the flag value '" + value + "' among " + Arrays.toString(values));
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

    /** Prefetch depth for the page cache's NVM prefetcher; the tier itself only reports swap-ins to it. */
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

        public Builder profile(NvmProfile profile) {
            this.profile = profile;
            return this;
        }

        public Builder capacityBytes(long capacityBytes) {
            this.capacityBytes = capacityBytes;
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
