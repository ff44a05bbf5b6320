package io.ratatosk.pagecache;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagKind;
import io.ratatosk.core.config.FlagProblem;
import io.ratatosk.core.config.FlagRule;
import io.ratatosk.core.config.FlagValueException;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.core.config.FrameShare;
import io.ratatosk.core.config.RuleContext;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The page cache's startup flags, parsed and validated once. The same flags come from a
 * {@code Map}, {@link Properties}, command-line arguments ({@code --pagecache.memory=512m}) or
 * system properties; the flags themselves are listed in {@link PageCacheFlags} (the page cache's own,
 * the policies' and the swap tiers') and documented in {@code docs/configuration.md}. The policies and
 * tiers read their flags through {@link FlagValues}, which this is.
 *
 * <p>Anything wrong (an unknown or misspelt flag, a bad value, flags that contradict each other)
 * throws one {@link InvalidConfigurationException} that lists every problem, one per line. A
 * config that exists is valid. Immutable and thread-safe; {@link #with} and {@link #withAll}
 * return validated copies.
 *
 * <p>The accessors by name ({@link #getInt(String)}, {@link #getSize}, {@link #getFrameCount}, {@link #isSet}, ...) refuse a
 * null name with a {@link NullPointerException}, and an unknown name or a flag of another kind (a size read with
 * {@code getInt}) with an {@link IllegalArgumentException} naming it and what to call instead. Those without a
 * {@code defaultIfUnset} throw {@link IllegalStateException} for a flag left unset whose default the policy computes
 * ({@code pagecache.clock.max_usage}, {@code pagecache.clockpro.cold_min}, {@code cold_max} and {@code ghosts},
 * {@code pagecache.history.*}, {@code pagecache.tinylfu.window}; docs/configuration.md), naming the flag and its default;
 * {@code pagecache.evictor.keep_free} unset reads as {@link #keepFree()}.
 */
public final class PageCacheConfig implements FlagValues {
    /** The prefix of every flag; system properties without it are ignored. */
    public static final String PREFIX = "pagecache.";

    /** The most frames a cache may have: frame indexes are ints, and arrays stop a little short of Integer.MAX_VALUE. */
    public static final int MAX_FRAMES = FrameTable.MAX_FRAMES;

    private static final int MIN_PAGES = 2;

    private static final PageCacheConfig DEFAULTS = parse(Map.of());

    /** The flags given, parsed, in {@link PageCacheFlags#ALL} order. */
    private final Map<Flag, Object> explicit;
    private final long memoryBytes;
    private final int pageSize;
    private final int frames;
    private final String policy;
    private final boolean evictorEnabled;
    private final int keepFree;
    private final String swap;
    private final boolean hugePages;

    private PageCacheConfig(Map<Flag, Object> explicit) {
        this.explicit = Collections.unmodifiableMap(explicit);
        this.memoryBytes = (Long) effective(PageCacheFlags.MEMORY);
        this.pageSize = Math.toIntExact((Long) effective(PageCacheFlags.PAGE_SIZE));
        this.frames = (int) (memoryBytes / pageSize);
        this.policy = (String) effective(PageCacheFlags.POLICY);
        this.evictorEnabled = (Boolean) effective(PageCacheFlags.EVICTOR_ENABLED);
        Object keepFreeGiven = explicit.get(PageCacheFlags.EVICTOR_KEEP_FREE);
        this.keepFree = keepFreeGiven != null ? (Integer) keepFreeGiven : defaultKeepFree(frames);
        this.swap = (String) effective(PageCacheFlags.SWAP);
        this.hugePages = "auto".equals(effective(PageCacheFlags.HUGE_PAGES));
    }

    // ---------------------------------------------------------------- sources

    /** Every flag at its default. */
    public static PageCacheConfig defaults() {
        return DEFAULTS;
    }

    /**
     * Flags by full name ({@code pagecache.memory}). Values are Strings, or Numbers and Booleans,
     * which are read through {@code toString()}; a decimal number (Double, Float, BigDecimal) is read
     * written out in full, without an exponent ({@code 1e-4} as {@code 0.0001}).
     *
     * @throws InvalidConfigurationException listing every unknown flag, bad value and broken rule
     */
    public static PageCacheConfig parse(Map<String, ?> values) {
        Objects.requireNonNull(values, "values"); // named, not an NPE about a local of the parser
        Input input = new Input();
        values.forEach(input::add);
        return input.build();
    }

    /**
     * Flags by full name from {@code properties} (including its defaults). An entry of {@code properties} itself
     * overrides its defaults also when its value is no String (a Number, a Boolean), which {@code getProperty} skips.
     */
    public static PageCacheConfig parse(Properties properties) {
        Objects.requireNonNull(properties, "properties");
        return parse(entries(properties));
    }

    /**
     * Every entry of {@code properties}, its defaults' included, by name: a String value through {@code getProperty}, any
     * other value (a Number, a Boolean) as it is, which {@code stringPropertyNames} would skip.
     */
    private static Map<String, Object> entries(Properties properties) {
        Map<String, Object> values = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) {
            values.put(name, properties.getProperty(name));
        }
        properties.forEach((key, value) -> {
            if (!(key instanceof String) || !(value instanceof String)) {
                values.put(String.valueOf(key), value);
            }
        });
        return values;
    }

    /**
     * Command-line arguments, each {@code --pagecache.<name>=<value>}. Any other argument, or a
     * flag given twice, is refused with a message that names the argument.
     */
    public static PageCacheConfig fromArgs(String... args) {
        Objects.requireNonNull(args, "args"); // else "Cannot read the array length because "<local3>" is null"
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

    /**
     * Every system property whose name starts with {@code pagecache.}; other properties are ignored, except those whose
     * first dotted word is one edit, or case, away from {@code pagecache} ({@code pagecahe.memory}, {@code PageCache.policy},
     * {@code page_cache.name}): a typo of the prefix, refused like a typo of a flag rather than left unread.
     */
    public static PageCacheConfig fromSystemProperties() {
        Map<String, Object> values = new TreeMap<>();
        Map<String, String> misspelt = new TreeMap<>();
        // Every entry, as parse(Properties) reads them: a value put as an Integer (System.getProperties().put) is no
        // String, and reading String values only left such a flag unread, the cache at its default.
        entries(System.getProperties()).forEach((name, value) -> {
            if (name.startsWith(PREFIX)) {
                values.put(name, value);
            } else if (name.indexOf('.') > 0 && withinOneEdit(name.substring(0, name.indexOf('.')).toLowerCase(Locale.ROOT),
                    PREFIX.substring(0, PREFIX.length() - 1))) {
                misspelt.put(name, String.valueOf(value));
            }
        });
        Input input = new Input();
        misspelt.forEach((name, value) -> input.problems.add(new InvalidConfigurationException.Problem(name, value, name
                + "=" + value + ": not read, as only system properties starting with '" + PREFIX + "' are"
                + hint(PREFIX + name.substring(name.indexOf('.') + 1)))));
        values.forEach(input::add);
        return input.build();
    }

    /** Whether {@code a} becomes {@code b} by at most one insertion, deletion or substitution. */
    private static boolean withinOneEdit(String a, String b) {
        if (Math.abs(a.length() - b.length()) > 1) {
            return false;
        }
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        // After the first difference the rest must match with one character of one of them (or of both) skipped.
        return a.substring(Math.min(i + 1, a.length())).equals(b.substring(Math.min(i + 1, b.length())))
                || a.substring(i).equals(b.substring(Math.min(i + 1, b.length())))
                || a.substring(Math.min(i + 1, a.length())).equals(b.substring(i));
    }

    /** A copy with flag {@code name} set to {@code value}, validated like a fresh parse (rules across flags included). */
    public PageCacheConfig with(String name, String value) {
        return withAll(Collections.singletonMap(name, value));
    }

    /** A copy with every flag of {@code values} set, validated like a fresh parse. */
    public PageCacheConfig withAll(Map<String, ?> values) {
        Objects.requireNonNull(values, "values");
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

    /** {@code pagecache.policy}: one of the policies of {@code io.ratatosk.policies.PolicyRegistry}. */
    public String policy() {
        return policy;
    }

    /** {@code pagecache.evictor.enabled}. */
    public boolean evictorEnabled() {
        return evictorEnabled;
    }

    /** {@code pagecache.huge_pages=auto}: ask for transparent huge pages where the platform gives them. */
    public boolean hugePages() {
        return hugePages;
    }

    /**
     * {@code pagecache.evictor.keep_free} if set; else 5% of the frames, at least 30 and at most
     * 100000, or half the frames when there are fewer than 60. Always less than {@link #frames()}.
     */
    public int keepFree() {
        return keepFree;
    }

    /** {@code pagecache.swap}: {@code file}, or the name of a swap tier on the class path ({@link PageCacheFlags#TIERS}). */
    public String swap() {
        return swap;
    }

    // ---------------------------------------------------------------- generic accessors

    /** The value given for {@code flag}, parsed, or null when it was left at its default (for the policies and tiers). */
    @Override
    public Object given(Flag flag) {
        return explicit.get(flag);
    }

    /** The value given for {@code flag} as normalised text, or null when it was left at its default. */
    @Override
    public String text(Flag flag) {
        Object value = explicit.get(flag);
        return value == null ? null : flag.format(value);
    }

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
        if (flag == PageCacheFlags.EVICTOR_KEEP_FREE) {
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
        if (flag == PageCacheFlags.EVICTOR_KEEP_FREE) {
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
        for (Flag flag : PageCacheFlags.ALL.all()) {
            String value;
            if (flag == PageCacheFlags.EVICTOR_KEEP_FREE) {
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
        Objects.requireNonNull(name, "flag name"); // else an NPE from deep in the catalog's lookup
        Optional<Flag> flag = PageCacheFlags.ALL.byName(name);
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
            case IDENTIFIER -> "getString";
        };
    }

    /** "; did you mean 'x'?" for a close name, else the list of valid names; for a tier's flag without the tier, where it comes from. */
    private static String hint(String name) {
        Optional<String> missingTier = PageCacheFlags.missingTier(name);
        if (missingTier.isPresent()) {
            return "; " + missingTier.get();
        }
        return PageCacheFlags.ALL.closest(name)
                .map(flag -> "; did you mean '" + flag.name() + "'?")
                .orElseGet(() -> "; valid flags are " + PageCacheFlags.ALL.all().stream().map(Flag::name).collect(Collectors.joining(", ")));
    }

    /** The default keep-free count for a cache of {@code frames} frames. */
    static int defaultKeepFree(int frames) {
        if (frames < 60) {
            return frames / 2;
        }
        return (int) Math.min(100_000, Math.max(30, frames / 20L));
    }

    private static String pages(long count) {
        return count + (count == 1 ? " page" : " pages");
    }

    /** Collects the flags of one parse, and every problem with them, before anything is built. */
    private static final class Input implements FlagValues {
        final List<InvalidConfigurationException.Problem> problems = new ArrayList<>();
        /** Parsed values, and the text they were given as, for flags whose value is fine on its own. */
        final Map<Flag, Object> parsed = new LinkedHashMap<>();
        final Map<Flag, String> given = new LinkedHashMap<>();
        /** Flags whose value was refused; rules across flags skip them to avoid a second, confusing message. */
        final Set<Flag> refused = new HashSet<>();

        void add(String name, Object value) {
            if (name == null) {
                problems.add(new InvalidConfigurationException.Problem("null", String.valueOf(value), "a flag without a name (null key)"));
                return;
            }
            String text = text(value);
            Optional<Flag> flag = PageCacheFlags.ALL.byName(name);
            if (flag.isEmpty()) {
                problems.add(new InvalidConfigurationException.Problem(name, text,
                        name + "=" + (text == null ? "" : text) + ": unknown flag" + hint(name)));
                return;
            }
            try {
                parsed.put(flag.get(), flag.get().parse(text));
                given.put(flag.get(), text == null ? null : text.strip());
            } catch (FlagValueException e) {
                addAll(e.problems());
                refused.add(flag.get());
            }
        }

        /**
         * A value as the flags read it: its {@code toString()}, except that a decimal number is written out in full
         * ({@code 1.0E-4} as {@code 0.00010}, {@code 1E+9} as {@code 1000000000}), as no flag reads an exponent.
         */
        private static String text(Object value) {
            if (value instanceof BigDecimal decimal) {
                return decimal.toPlainString();
            }
            if ((value instanceof Double || value instanceof Float) && Double.isFinite(((Number) value).doubleValue())) {
                return new BigDecimal(value.toString()).toPlainString();
            }
            return value == null ? null : value.toString();
        }

        @Override
        public Object given(Flag flag) {
            return parsed.get(flag);
        }

        @Override
        public String text(Flag flag) {
            return given.get(flag);
        }

        PageCacheConfig build() {
            int frames = checkFrames();
            if (!refused.contains(PageCacheFlags.POLICY) && !refused.contains(PageCacheFlags.PAGE_SIZE)) {
                // The rules across the policies' and the tiers' flags, with the frame count when it is known.
                RuleContext context = new RuleContext(this, Set.copyOf(refused), (String) value(PageCacheFlags.POLICY),
                        frames, (Long) value(PageCacheFlags.PAGE_SIZE), frames > 0 ? frameCount(frames) : "unknown");
                List<FlagProblem> found = new ArrayList<>();
                for (FlagRule rule : PageCacheFlags.RULES) {
                    rule.check(context, found);
                }
                addAll(found);
            }
            if (!problems.isEmpty()) {
                throw new InvalidConfigurationException(problems);
            }
            Map<Flag, Object> explicit = new LinkedHashMap<>();
            for (Flag flag : PageCacheFlags.ALL.all()) {
                if (parsed.containsKey(flag)) {
                    explicit.put(flag, parsed.get(flag));
                }
            }
            return new PageCacheConfig(explicit);
        }

        private void addAll(List<FlagProblem> found) {
            for (FlagProblem problem : found) {
                problems.add(new InvalidConfigurationException.Problem(problem.flag(), problem.value(), problem.message()));
            }
        }

        /**
         * Memory holds 2 to MAX_FRAMES pages; keep_free and frame counts fit in the frames. Returns
         * the frame count, or 0 when memory or page size is refused and it is unknown.
         */
        private int checkFrames() {
            if (refused.contains(PageCacheFlags.MEMORY) || refused.contains(PageCacheFlags.PAGE_SIZE)) {
                return 0;
            }
            long memory = (Long) value(PageCacheFlags.MEMORY);
            long pageSize = (Long) value(PageCacheFlags.PAGE_SIZE);
            long pages = memory / pageSize;
            String holds = PageCacheFlags.MEMORY.name() + "=" + text(PageCacheFlags.MEMORY, true) + " holds " + pages(pages) + " of "
                    + PageCacheFlags.PAGE_SIZE.name() + "=" + pageSize;
            if (pages < MIN_PAGES) {
                problems.add(new InvalidConfigurationException.Problem(PageCacheFlags.MEMORY.name(), text(PageCacheFlags.MEMORY, true),
                        holds + "; at least " + MIN_PAGES + " are needed"));
                return 0;
            }
            if (pages > MAX_FRAMES) {
                problems.add(new InvalidConfigurationException.Problem(PageCacheFlags.MEMORY.name(), text(PageCacheFlags.MEMORY, true),
                        holds + "; at most " + MAX_FRAMES + " are supported"));
                return 0;
            }
            Object keepFree = parsed.get(PageCacheFlags.EVICTOR_KEEP_FREE);
            if (keepFree != null && (Integer) keepFree >= pages) {
                problems.add(new InvalidConfigurationException.Problem(PageCacheFlags.EVICTOR_KEEP_FREE.name(),
                        text(PageCacheFlags.EVICTOR_KEEP_FREE, true), PageCacheFlags.EVICTOR_KEEP_FREE.name() + "="
                        + text(PageCacheFlags.EVICTOR_KEEP_FREE, true) + ": must be less than the frame count, " + frameCount(pages)));
            }
            List<FlagProblem> found = new ArrayList<>();
            RuleContext context = new RuleContext(this, Set.copyOf(refused), (String) value(PageCacheFlags.POLICY), (int) pages,
                    pageSize, frameCount(pages));
            refused.addAll(RuleContext.checkFrameCounts(parsed.keySet(), context, found));
            addAll(found);
            return (int) pages;
        }

        /** "N (pagecache.memory=M / pagecache.page_size=P)": the frame count and where it comes from. */
        private String frameCount(long frames) {
            return frames + " (" + PageCacheFlags.MEMORY.name() + "=" + text(PageCacheFlags.MEMORY, true) + " / "
                    + PageCacheFlags.PAGE_SIZE.name() + "=" + value(PageCacheFlags.PAGE_SIZE) + ")";
        }

        private Object value(Flag flag) {
            Object value = parsed.get(flag);
            return value != null ? value : flag.parsedDefault();
        }

        /** The text a flag was given as, or its default's when it was not (withDefault), for messages. */
        private String text(Flag flag, boolean withDefault) {
            String text = given.get(flag);
            return text != null || !withDefault ? text : flag.defaultValue();
        }
    }
}
