package io.ratatosk.pagecache;

import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagKind;
import io.ratatosk.core.config.Flags;
import io.ratatosk.core.config.FrameShare;
import io.ratatosk.core.config.PolicySizes;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The page cache's startup flags, parsed and validated once. The same flags come from a
 * {@code Map}, {@link Properties}, command-line arguments ({@code --pagecache.memory=512m}) or
 * system properties; the flags themselves are defined in {@link Flags} and documented in
 * {@code docs/configuration.md}.
 *
 * <p>Anything wrong (an unknown or misspelt flag, a bad value, flags that contradict each other)
 * throws one {@link InvalidConfigurationException} that lists every problem, one per line. A
 * config that exists is valid. Immutable and thread-safe; {@link #with} and {@link #withAll}
 * return validated copies.
 */
public final class PageCacheConfig {
    /** The prefix of every flag; system properties without it are ignored. */
    public static final String PREFIX = "pagecache.";

    /** The most frames a cache may have: frame indexes are ints, and arrays stop a little short of Integer.MAX_VALUE. */
    public static final int MAX_FRAMES = Integer.MAX_VALUE - 8;

    private static final int MIN_PAGES = 2;

    /** The most pages the NVM tier may hold: slot indexes are ints, and start-gap needs one spare slot in its arrays. */
    public static final int MAX_NVM_SLOTS = MAX_FRAMES - 1;

    private static final PageCacheConfig DEFAULTS = parse(Map.of());

    /** The flags given, parsed, in {@link Flags#ALL} order. */
    private final Map<Flag, Object> explicit;
    private final long memoryBytes;
    private final int pageSize;
    private final int frames;
    private final String policy;
    private final boolean evictorEnabled;
    private final int keepFree;
    private final String swap;

    private PageCacheConfig(Map<Flag, Object> explicit) {
        this.explicit = Collections.unmodifiableMap(explicit);
        this.memoryBytes = (Long) effective(Flags.MEMORY);
        this.pageSize = Math.toIntExact((Long) effective(Flags.PAGE_SIZE));
        this.frames = (int) (memoryBytes / pageSize);
        this.policy = (String) effective(Flags.POLICY);
        this.evictorEnabled = (Boolean) effective(Flags.EVICTOR_ENABLED);
        Object keepFreeGiven = explicit.get(Flags.EVICTOR_KEEP_FREE);
        this.keepFree = keepFreeGiven != null ? (Integer) keepFreeGiven : defaultKeepFree(frames);
        this.swap = (String) effective(Flags.SWAP);
    }

    // ---------------------------------------------------------------- sources

    /** Every flag at its default. */
    public static PageCacheConfig defaults() {
        return DEFAULTS;
    }

    /**
     * Flags by full name ({@code pagecache.memory}). Values are Strings, or Numbers and Booleans,
     * which are read through {@code toString()}.
     *
     * @throws InvalidConfigurationException listing every unknown flag, bad value and broken rule
     */
    public static PageCacheConfig parse(Map<String, ?> values) {
        Input input = new Input();
        values.forEach(input::add);
        return input.build();
    }

    /** Flags by full name from {@code properties} (including its defaults). */
    public static PageCacheConfig parse(Properties properties) {
        Map<String, Object> values = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) {
            values.put(name, properties.getProperty(name));
        }
        Input input = new Input();
        properties.forEach((key, value) -> {
            if (!(key instanceof String) || !(value instanceof String)) {
                input.add(String.valueOf(key), value);
            }
        });
        values.forEach(input::add);
        return input.build();
    }

    /**
     * Command-line arguments, each {@code --pagecache.<name>=<value>}. Any other argument, or a
     * flag given twice, is refused with a message that names the argument.
     */
    public static PageCacheConfig fromArgs(String... args) {
        Input input = new Input();
        Map<String, String> seen = new LinkedHashMap<>();
        for (String arg : args) {
            int equals = arg == null ? -1 : arg.indexOf('=');
            if (arg == null || !arg.startsWith("--") || equals <= 2) {
                input.problems.add(new InvalidConfigurationException.Problem(String.valueOf(arg), null,
                        "argument '" + arg + "' is not a flag: expected --pagecache.<name>=<value>, like --pagecache.memory=512m"));
                continue;
            }
            String name = arg.substring(2, equals);
            String value = arg.substring(equals + 1);
            String earlier = seen.putIfAbsent(name, arg);
            if (earlier != null) {
                input.problems.add(new InvalidConfigurationException.Problem(name, value,
                        "argument '" + arg + "' sets " + name + " again, after '" + earlier + "'; give each flag once"));
                continue;
            }
            input.add(name, value);
        }
        return input.build();
    }

    /** Every system property whose name starts with {@code pagecache.}; other properties are ignored. */
    public static PageCacheConfig fromSystemProperties() {
        Properties system = System.getProperties();
        Map<String, Object> values = new TreeMap<>();
        for (String name : system.stringPropertyNames()) {
            if (name.startsWith(PREFIX)) {
                values.put(name, system.getProperty(name));
            }
        }
        return parse(values);
    }

    /** A copy with flag {@code name} set to {@code value}, validated like a fresh parse (rules across flags included). */
    public PageCacheConfig with(String name, String value) {
        return withAll(Collections.singletonMap(name, value));
    }

    /** A copy with every flag of {@code values} set, validated like a fresh parse. */
    public PageCacheConfig withAll(Map<String, ?> values) {
        Map<String, Object> merged = new LinkedHashMap<>(explicitValuesInFlagOrder());
        merged.putAll(values);
        return parse(merged);
    }

    // ---------------------------------------------------------------- typed accessors

    /** {@code pagecache.memory} in bytes. */
    public long memoryBytes() {
        return memoryBytes;
    }

    /** {@code pagecache.page_size} in bytes. */
    public int pageSize() {
        return pageSize;
    }

    /** The number of page frames: {@code memoryBytes() / pageSize()}, rounded down; at least 2. */
    public int frames() {
        return frames;
    }

    /** {@code pagecache.policy}: one of {@link Flags#POLICIES}. */
    public String policy() {
        return policy;
    }

    /** {@code pagecache.evictor.enabled}. */
    public boolean evictorEnabled() {
        return evictorEnabled;
    }

    /**
     * {@code pagecache.evictor.keep_free} if set; else 5% of the frames, at least 30 and at most
     * 100000, or half the frames when there are fewer than 60. Always less than {@link #frames()}.
     */
    public int keepFree() {
        return keepFree;
    }

    /** {@code pagecache.swap}: one of {@link Flags#SWAPS}. */
    public String swap() {
        return swap;
    }

    // ---------------------------------------------------------------- generic accessors

    /** Whether flag {@code name} was given explicitly, rather than left at its default. */
    public boolean isSet(String name) {
        return explicit.containsKey(flag(name));
    }

    /**
     * The effective value of any flag as normalised text ({@code 512m}, {@code true}, {@code muninn}).
     *
     * @throws IllegalStateException if the flag is unset and its default is the policy's to choose
     */
    public String getString(String name) {
        Flag flag = flag(name);
        if (flag == Flags.EVICTOR_KEEP_FREE) {
            return Integer.toString(keepFree);
        }
        return flag.format(effectiveOrThrow(flag));
    }

    /**
     * The value of an integer flag.
     *
     * @throws IllegalStateException if the flag is unset and its default is the policy's to choose
     *                               ({@code pagecache.clock.max_usage}): use {@link #getInt(String, int)}
     */
    public int getInt(String name) {
        Flag flag = flag(name, FlagKind.INT);
        if (flag == Flags.EVICTOR_KEEP_FREE) {
            return keepFree;
        }
        return (Integer) effectiveOrThrow(flag);
    }

    /** The value of an integer flag if it was set, else {@code defaultIfUnset} (for defaults that depend on the policy). */
    public int getInt(String name, int defaultIfUnset) {
        Object value = explicit.get(flag(name, FlagKind.INT));
        return value != null ? (Integer) value : defaultIfUnset;
    }

    /** The value of a size flag, in bytes. */
    public long getSize(String name) {
        return (Long) effectiveOrThrow(flag(name, FlagKind.SIZE));
    }

    /** The value of a duration flag, in nanoseconds. */
    public long getDurationNanos(String name) {
        return (Long) effectiveOrThrow(flag(name, FlagKind.DURATION));
    }

    /** The value of a duration flag in nanoseconds if it was set, else {@code defaultIfUnset} (for defaults another flag decides). */
    public long getDurationNanos(String name, long defaultIfUnset) {
        Object value = explicit.get(flag(name, FlagKind.DURATION));
        return value != null ? (Long) value : defaultIfUnset;
    }

    /** The value of a decimal flag. */
    public double getDouble(String name) {
        return (Double) effectiveOrThrow(flag(name, FlagKind.DOUBLE));
    }

    /** The value of a decimal flag if it was set, else {@code defaultIfUnset}. */
    public double getDouble(String name, double defaultIfUnset) {
        Object value = explicit.get(flag(name, FlagKind.DOUBLE));
        return value != null ? (Double) value : defaultIfUnset;
    }

    /** The value of a boolean flag. */
    public boolean getBoolean(String name) {
        return (Boolean) effectiveOrThrow(flag(name, FlagKind.BOOLEAN));
    }

    /**
     * The value of a fraction-or-count flag as a number of frames of this cache: a fraction times
     * {@link #frames()}, rounded, or the count given; at least 1 and at most {@link #frames()}.
     */
    public int getFrameCount(String name) {
        return ((FrameShare) effectiveOrThrow(flag(name, FlagKind.FRACTION_OR_COUNT))).of(frames);
    }

    /** The flags given explicitly, by name in sorted order, as normalised text ({@code 512MB} becomes {@code 512m}). */
    public Map<String, String> explicitValues() {
        Map<String, String> sorted = new TreeMap<>();
        explicit.forEach((flag, value) -> sorted.put(flag.name(), flag.format(value)));
        return Collections.unmodifiableMap(sorted);
    }

    /** Every flag with its effective value, on one line. */
    @Override
    public String toString() {
        StringJoiner line = new StringJoiner(", ", "PageCacheConfig{", "}");
        for (Flag flag : Flags.ALL) {
            String value;
            if (flag == Flags.EVICTOR_KEEP_FREE) {
                value = Integer.toString(keepFree);
            } else {
                Object effective = effective(flag);
                value = effective == null ? "(" + flag.defaultText() + ")" : flag.format(effective);
            }
            line.add(flag.name() + "=" + value);
        }
        return line.toString();
    }

    /** Two configs are equal when the same flags were given with the same values. */
    @Override
    public boolean equals(Object other) {
        return other instanceof PageCacheConfig that && explicit.equals(that.explicit);
    }

    @Override
    public int hashCode() {
        return explicit.hashCode();
    }

    // ---------------------------------------------------------------- internals

    private Object effective(Flag flag) {
        Object value = explicit.get(flag);
        return value != null ? value : flag.parsedDefault();
    }

    private Object effectiveOrThrow(Flag flag) {
        Object value = effective(flag);
        if (value == null) {
            throw new IllegalStateException(flag.name() + " is not set and has no fixed default (" + flag.defaultText()
                    + "); read it with a defaultIfUnset, or check isSet first");
        }
        return value;
    }

    private Map<String, String> explicitValuesInFlagOrder() {
        Map<String, String> values = new LinkedHashMap<>();
        explicit.forEach((flag, value) -> values.put(flag.name(), flag.format(value)));
        return values;
    }

    private static Flag flag(String name, FlagKind kind) {
        Flag flag = flag(name);
        if (flag.kind() != kind) {
            throw new IllegalArgumentException(name + " is " + kindName(flag.kind()) + " flag, not " + kindName(kind)
                    + " flag: read it with " + accessorFor(flag.kind()));
        }
        return flag;
    }

    private static Flag flag(String name) {
        Optional<Flag> flag = Flags.byName(name);
        if (flag.isEmpty()) {
            throw new IllegalArgumentException("unknown flag '" + name + "'" + hint(name));
        }
        return flag.get();
    }

    /** "a size", "an int", "a fraction-or-count". */
    private static String kindName(FlagKind kind) {
        String name = kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
        return ("aeiou".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name;
    }

    private static String accessorFor(FlagKind kind) {
        return switch (kind) {
            case SIZE -> "getSize";
            case DURATION -> "getDurationNanos";
            case INT -> "getInt";
            case DOUBLE -> "getDouble";
            case BOOLEAN -> "getBoolean";
            case CHOICE -> "getString";
            case FRACTION_OR_COUNT -> "getFrameCount";
        };
    }

    /** "; did you mean 'x'?" for a close name, else the list of valid names. */
    private static String hint(String name) {
        return Flags.closest(name)
                .map(flag -> "; did you mean '" + flag.name() + "'?")
                .orElseGet(() -> "; valid flags are " + Flags.ALL.stream().map(Flag::name).collect(Collectors.joining(", ")));
    }

    /** The default keep-free count for a cache of {@code frames} frames. */
    static int defaultKeepFree(int frames) {
        if (frames < 60) {
            return frames / 2;
        }
        return (int) Math.min(100_000, Math.max(30, frames / 20L));
    }

    private static String framesOf(long count) {
        return count + (count == 1 ? " frame" : " frames");
    }

    private static String pages(long count) {
        return count + (count == 1 ? " page" : " pages");
    }

    /** Collects the flags of one parse, and every problem with them, before anything is built. */
    private static final class Input {
        final List<InvalidConfigurationException.Problem> problems = new ArrayList<>();
        /** Parsed values, and the text they were given as, for flags whose value is fine on its own. */
        final Map<Flag, Object> parsed = new LinkedHashMap<>();
        final Map<Flag, String> given = new LinkedHashMap<>();
        /** Flags whose value was refused; rules across flags skip them to avoid a second, confusing message. */
        final List<Flag> refused = new ArrayList<>();

        void add(String name, Object value) {
            if (name == null) {
                problems.add(new InvalidConfigurationException.Problem("null", String.valueOf(value), "a flag without a name (null key)"));
                return;
            }
            String text = value == null ? null : value.toString();
            Optional<Flag> flag = Flags.byName(name);
            if (flag.isEmpty()) {
                problems.add(new InvalidConfigurationException.Problem(name, text,
                        name + "=" + (text == null ? "" : text) + ": unknown flag" + hint(name)));
                return;
            }
            try {
                parsed.put(flag.get(), flag.get().parse(text));
                given.put(flag.get(), text == null ? null : text.strip());
            } catch (InvalidConfigurationException e) {
                problems.addAll(e.problems());
                refused.add(flag.get());
            }
        }

        PageCacheConfig build() {
            int frames = checkFrames();
            checkNvmSlots();
            checkAgainstMaxUsage(Flags.CLOCK_FAULT_USAGE);
            checkAgainstMaxUsage(Flags.CLOCK_EVICT_THRESHOLD);
            checkAgainstMaxUsage(Flags.HISTORY_BOOST_USAGE);
            if (frames > 0) {
                checkColdBounds(frames);
                checkGhosts(frames);
                checkHistorySizes(frames);
            }
            if (!problems.isEmpty()) {
                throw new InvalidConfigurationException(problems);
            }
            Map<Flag, Object> explicit = new LinkedHashMap<>();
            for (Flag flag : Flags.ALL) {
                if (parsed.containsKey(flag)) {
                    explicit.put(flag, parsed.get(flag));
                }
            }
            return new PageCacheConfig(explicit);
        }

        /**
         * Memory holds 2 to MAX_FRAMES pages; keep_free and frame counts fit in the frames. Returns
         * the frame count, or 0 when memory or page size is refused and it is unknown.
         */
        private int checkFrames() {
            if (refused.contains(Flags.MEMORY) || refused.contains(Flags.PAGE_SIZE)) {
                return 0;
            }
            long memory = (Long) value(Flags.MEMORY);
            long pageSize = (Long) value(Flags.PAGE_SIZE);
            long pages = memory / pageSize;
            String holds = Flags.MEMORY.name() + "=" + text(Flags.MEMORY) + " holds " + pages(pages) + " of "
                    + Flags.PAGE_SIZE.name() + "=" + pageSize;
            if (pages < MIN_PAGES) {
                problems.add(new InvalidConfigurationException.Problem(Flags.MEMORY.name(), text(Flags.MEMORY),
                        holds + "; at least " + MIN_PAGES + " are needed"));
                return 0;
            }
            if (pages > MAX_FRAMES) {
                problems.add(new InvalidConfigurationException.Problem(Flags.MEMORY.name(), text(Flags.MEMORY),
                        holds + "; at most " + MAX_FRAMES + " are supported"));
                return 0;
            }
            String frameCount = "the frame count, " + frameCount(pages);
            Object keepFree = parsed.get(Flags.EVICTOR_KEEP_FREE);
            if (keepFree != null && (Integer) keepFree >= pages) {
                problems.add(new InvalidConfigurationException.Problem(Flags.EVICTOR_KEEP_FREE.name(), text(Flags.EVICTOR_KEEP_FREE),
                        Flags.EVICTOR_KEEP_FREE.name() + "=" + text(Flags.EVICTOR_KEEP_FREE) + ": must be less than " + frameCount));
            }
            parsed.forEach((flag, value) -> {
                if (value instanceof FrameShare share && !share.isFraction() && share.count() > pages) {
                    problems.add(new InvalidConfigurationException.Problem(flag.name(), text(flag),
                            flag.name() + "=" + text(flag) + ": must be at most " + frameCount));
                    refused.add(flag);
                }
            });
            return (int) pages;
        }

        /** The NVM tier holds 1 to MAX_NVM_SLOTS pages, and has no more devices than slots. */
        private void checkNvmSlots() {
            if (refused.contains(Flags.NVM_CAPACITY) || refused.contains(Flags.PAGE_SIZE)) {
                return;
            }
            long capacity = (Long) value(Flags.NVM_CAPACITY);
            long pageSize = (Long) value(Flags.PAGE_SIZE);
            long slots = capacity / pageSize;
            String holds = Flags.NVM_CAPACITY.name() + "=" + text(Flags.NVM_CAPACITY) + " holds " + pages(slots) + " of "
                    + Flags.PAGE_SIZE.name() + "=" + pageSize;
            if (slots < 1) {
                problems.add(new InvalidConfigurationException.Problem(Flags.NVM_CAPACITY.name(), text(Flags.NVM_CAPACITY),
                        holds + "; at least 1 is needed"));
                return;
            }
            if (slots > MAX_NVM_SLOTS) {
                problems.add(new InvalidConfigurationException.Problem(Flags.NVM_CAPACITY.name(), text(Flags.NVM_CAPACITY),
                        holds + "; at most " + MAX_NVM_SLOTS + " are supported"));
                return;
            }
            Object devices = parsed.get(Flags.NVM_DEVICES);
            if (devices != null && (Integer) devices > slots) {
                problems.add(new InvalidConfigurationException.Problem(Flags.NVM_DEVICES.name(), text(Flags.NVM_DEVICES),
                        Flags.NVM_DEVICES.name() + "=" + text(Flags.NVM_DEVICES) + ": must be at most the NVM slots, " + slots
                                + " (" + Flags.NVM_CAPACITY.name() + "=" + text(Flags.NVM_CAPACITY) + " / "
                                + Flags.PAGE_SIZE.name() + "=" + pageSize + ")"));
            }
        }

        /**
         * An explicit clockpro.cold_max comes to at least as many frames as clockpro.cold_min, set or
         * at its default (which is the same for both CLOCK-Pro policies). Checked whatever the policy,
         * like every rule between flags that are set, so that changing only the policy keeps a
         * config valid. A cold_max above its cap (frames - cold_min) is capped, never refused: the cap
         * is at least cold_min.
         */
        private void checkColdBounds(int frames) {
            Object max = parsed.get(Flags.CLOCKPRO_COLD_MAX);
            if (max == null || refused.contains(Flags.CLOCKPRO_COLD_MAX) || refused.contains(Flags.CLOCKPRO_COLD_MIN)) {
                return;
            }
            int coldMax = ((FrameShare) max).of(frames);
            Object min = parsed.get(Flags.CLOCKPRO_COLD_MIN);
            int coldMin = min != null ? ((FrameShare) min).of(frames) : PolicySizes.defaultColdMin(frames);
            if (coldMin <= coldMax) {
                return;
            }
            String maxText = Flags.CLOCKPRO_COLD_MAX.name() + "=" + text(Flags.CLOCKPRO_COLD_MAX) + " (" + framesOf(coldMax) + ")";
            String frameCount = "; the frame count is " + frameCount(frames);
            if (min != null) {
                problems.add(new InvalidConfigurationException.Problem(Flags.CLOCKPRO_COLD_MIN.name(), text(Flags.CLOCKPRO_COLD_MIN),
                        Flags.CLOCKPRO_COLD_MIN.name() + "=" + text(Flags.CLOCKPRO_COLD_MIN) + " (" + framesOf(coldMin)
                                + ") must be at most " + maxText + frameCount));
            } else {
                problems.add(new InvalidConfigurationException.Problem(Flags.CLOCKPRO_COLD_MAX.name(), text(Flags.CLOCKPRO_COLD_MAX),
                        maxText + " must be at least " + Flags.CLOCKPRO_COLD_MIN.name() + ", unset, which defaults to "
                                + framesOf(coldMin) + " (" + Flags.CLOCKPRO_COLD_MIN.defaultText() + ")" + frameCount));
            }
        }

        /**
         * The ghosts a CLOCK-Pro clock keeps (clockpro.ghosts x frames) fit its ghost index and,
         * with the frames, its node arrays. Checked when clockpro.ghosts is set, whatever the policy,
         * and at the policy's default when the policy is clock-pro or clock-pro-plus.
         */
        private void checkGhosts(int frames) {
            if (refused.contains(Flags.CLOCKPRO_GHOSTS)) {
                return;
            }
            Object given = parsed.get(Flags.CLOCKPRO_GHOSTS);
            String policy = (String) value(Flags.POLICY);
            if (given == null && !policy.equals("clock-pro") && !policy.equals("clock-pro-plus")) {
                return;
            }
            double perFrame = given != null ? (Double) given : PolicySizes.defaultGhosts(policy);
            long ghosts = PolicySizes.ghostCapacity(frames, perFrame);
            long most = PolicySizes.maxGhosts(frames);
            if (ghosts <= most) {
                return;
            }
            String flag = given != null
                    ? Flags.CLOCKPRO_GHOSTS.name() + "=" + text(Flags.CLOCKPRO_GHOSTS)
                    : Flags.CLOCKPRO_GHOSTS.name() + ", unset, which defaults to " + Flags.CLOCKPRO_GHOSTS.format(perFrame) + " for "
                            + Flags.POLICY.name() + "=" + policy + ",";
            String fit = most < 1
                    ? "no ghost fits beside so many frames: the clock's arrays hold frames + ghosts + 1 <= " + MAX_FRAMES
                            + " nodes; lower " + Flags.MEMORY.name() + " or raise " + Flags.PAGE_SIZE.name()
                    : "at most " + most + " fit (" + PolicySizes.MAX_GHOSTS + " in the ghost index, and frames + ghosts + 1 <= "
                            + MAX_FRAMES + " nodes in the clock's arrays)";
            problems.add(new InvalidConfigurationException.Problem(Flags.CLOCKPRO_GHOSTS.name(), text(Flags.CLOCKPRO_GHOSTS),
                    flag + " keeps " + ghosts + " ghosts for the frame count, " + frameCount(frames) + "; " + fit));
        }

        /**
         * An explicit history.bits is at most 64 x the frames rounded up to a power of two, and an
         * explicit history.capacity at most 4 x the frames (and both within their own bounds),
         * whatever the policy: the history's structures are preallocated at these sizes.
         */
        private void checkHistorySizes(int frames) {
            Object bits = parsed.get(Flags.HISTORY_BITS);
            int mostBits = PolicySizes.maxHistoryBits(frames);
            if (bits != null && (Integer) bits > mostBits) {
                problems.add(new InvalidConfigurationException.Problem(Flags.HISTORY_BITS.name(), text(Flags.HISTORY_BITS),
                        Flags.HISTORY_BITS.name() + "=" + text(Flags.HISTORY_BITS) + ": must be at most " + mostBits + ", "
                                + PolicySizes.MAX_HISTORY_BITS_PER_FRAME + " x the frame count rounded up to a power of two; the frame count is "
                                + frameCount(frames)));
            }
            Object capacity = parsed.get(Flags.HISTORY_CAPACITY);
            int most = PolicySizes.maxHistoryCapacity(frames);
            if (capacity != null && (Integer) capacity > most) {
                problems.add(new InvalidConfigurationException.Problem(Flags.HISTORY_CAPACITY.name(), text(Flags.HISTORY_CAPACITY),
                        Flags.HISTORY_CAPACITY.name() + "=" + text(Flags.HISTORY_CAPACITY) + ": must be at most " + most + ", "
                                + PolicySizes.HISTORY_CAPACITY_PER_FRAME + " x the frame count; the frame count is " + frameCount(frames)));
            }
        }

        /** "N (pagecache.memory=M / pagecache.page_size=P)": the frame count and where it comes from. */
        private String frameCount(long frames) {
            return frames + " (" + Flags.MEMORY.name() + "=" + text(Flags.MEMORY) + " / " + Flags.PAGE_SIZE.name() + "="
                    + value(Flags.PAGE_SIZE) + ")";
        }

        /** fault_usage, evict_threshold and history.boost_usage may not exceed max_usage when it is set (its own bounds cap them at 7 otherwise). */
        private void checkAgainstMaxUsage(Flag flag) {
            Object value = parsed.get(flag);
            Object maxUsage = parsed.get(Flags.CLOCK_MAX_USAGE);
            if (value != null && maxUsage != null && (Integer) value > (Integer) maxUsage) {
                problems.add(new InvalidConfigurationException.Problem(flag.name(), text(flag),
                        flag.name() + "=" + text(flag) + ": must be an integer in [0, " + Flags.CLOCK_MAX_USAGE.name() + "=" + maxUsage + "]"));
            }
        }

        private Object value(Flag flag) {
            Object value = parsed.get(flag);
            return value != null ? value : flag.parsedDefault();
        }

        private String text(Flag flag) {
            String text = given.get(flag);
            return text != null ? text : flag.defaultValue();
        }
    }
}
