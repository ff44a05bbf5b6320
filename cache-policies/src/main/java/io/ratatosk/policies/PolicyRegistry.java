package io.ratatosk.policies;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagCatalog;
import io.ratatosk.core.config.FlagProblem;
import io.ratatosk.core.config.FlagRule;
import io.ratatosk.core.config.FlagValueException;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.core.config.RuleContext;
import io.ratatosk.policies.bestof.BestOfPolicy;
import io.ratatosk.policies.clockpro.ClockProFlags;
import io.ratatosk.policies.clockpro.ClockProPlusPolicy;
import io.ratatosk.policies.clockpro.ClockProPolicy;
import io.ratatosk.policies.deferredlru.DeferredLruPolicy;
import io.ratatosk.policies.s3fifo.S3FifoPolicy;
import io.ratatosk.policies.tinylfu.AdaptiveTinyLfuPolicy;
import io.ratatosk.policies.tinylfu.WTinyLfuPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Every eviction policy, in one list: its name, the flags it reads with its defaults, and its factory
 * ({@link PolicyEntry}), and the rules across those flags. The page cache's configuration parses the
 * policy flags through it, the simulator, {@code ./bench} and the JMH suite create policies through
 * it, and {@code docs/configuration.md}'s policy tables are generated from it. A new policy is a class
 * with its {@link PolicyEntry} (and flags, if it has its own) plus one line in {@link #ENTRIES}.
 */
public final class PolicyRegistry {
    public static final String POLICY_FLAG = "pagecache.policy";

    /** The policy {@code pagecache.policy} selects when unset (docs/policies.md gives the evidence). */
    public static final String DEFAULT_POLICY = BestOfPolicy.NAME;

    /** The name the tools' policy lists accept for {@link #DEFAULT_POLICY}, whatever it is. */
    public static final String DEFAULT_ALIAS = "default";

    /** Every policy, in the order the docs and tools list them. */
    public static final List<PolicyEntry> ENTRIES = List.of(MuninnPolicy.ENTRY, GlobalClockPolicy.ENTRY, ClockPolicy.ENTRY,
        RandomPolicy.ENTRY, ClockProPolicy.ENTRY, ClockProPlusPolicy.ENTRY, BitsetHistoryPolicy.ENTRY,
        ExactHistoryPolicy.ENTRY, DeferredLruPolicy.ENTRY, S3FifoPolicy.ENTRY, WTinyLfuPolicy.ENTRY, AdaptiveTinyLfuPolicy.ENTRY,
        BestOfPolicy.ENTRY);

    /** The names {@code pagecache.policy} accepts, in {@link #ENTRIES} order. */
    public static final List<String> NAMES = ENTRIES.stream().map(PolicyEntry::name).toList();

    /** The rules across the policy flags; every parser of those flags runs them all. */
    public static final List<FlagRule> RULES = Stream.of(ClockFlags.RULES, ClockProFlags.RULES, HistoryFlags.RULES)
        .flatMap(List::stream).toList();

    private static final FlagCatalog FLAGS = new FlagCatalog(ENTRIES.stream()
        .flatMap(entry -> entry.flags().stream().map(PolicyEntry.ReadFlag::flag)).toList());

    private PolicyRegistry() {
    }

    /** Every flag some policy reads, each once, in the order the policies list them. */
    public static FlagCatalog flags() {
        return FLAGS;
    }

    /** The policy called {@code name}, if there is one. */
    public static Optional<PolicyEntry> entry(String name) {
        return ENTRIES.stream().filter(entry -> entry.name().equals(name)).findFirst();
    }

    private static PolicyEntry requireEntry(String name) {
        return entry(name).orElseThrow(() -> new IllegalArgumentException(
            POLICY_FLAG + "=" + name + " is not a policy; valid: " + String.join(", ", NAMES)));
    }

    /**
     * The flag policy {@code policy} reads that {@code key} names: by its full name, or by what follows a
     * dot in it ({@code max_usage}, {@code clockpro.cold_min}), as the tools' short overrides write them.
     *
     * @throws IllegalArgumentException for an unknown policy, or a key that names none or several of its flags
     */
    public static Flag flagOf(String policy, String key) {
        PolicyEntry entry = requireEntry(policy);
        List<Flag> flags = entry.flags().stream().map(PolicyEntry.ReadFlag::flag).toList();
        List<Flag> matches = flags.stream().filter(f -> f.name().equals(key) || f.name().endsWith("." + key)).toList();
        if (matches.size() == 1) {
            return matches.get(0);
        }
        throw new IllegalArgumentException((matches.isEmpty() ? "unknown flag '" + key + "'" : "ambiguous flag '" + key
            + "' (" + matches + ")") + " for policy " + policy + "; its flags: "
            + (flags.isEmpty() ? "none" : flags.stream().map(Flag::name).collect(Collectors.joining(", "))));
    }

    /**
     * Creates policy {@code name} over {@code frames} with {@code values} (unset flags at the policy's
     * defaults), after checking them against every rule for this frame count.
     *
     * @throws IllegalArgumentException for an unknown name, listing {@link #NAMES}
     * @throws FlagValueException       naming each flag that breaks a rule, and the rule
     */
    public static EvictionPolicy create(String name, FrameTable frames, FlagValues values) {
        Objects.requireNonNull(name, POLICY_FLAG);
        PolicyEntry entry = requireEntry(name);
        RuleContext context = RuleContext.forFrames(values, name, frames.frameCount(), 0);
        List<FlagProblem> problems = new ArrayList<>();
        RuleContext.checkFrameCounts(FLAGS.all(), context, problems);
        check(context, problems);
        if (!problems.isEmpty()) {
            throw new FlagValueException(problems);
        }
        return entry.factory().create(frames, values);
    }

    /**
     * The policy table of {@code docs/configuration.md}: one row per policy with its name, what it is,
     * and the flags it reads with the default each has for it.
     */
    public static String markdownTable() {
        StringBuilder table = new StringBuilder();
        table.append("| Policy | What it is | Flags it reads (default for this policy) |\n");
        table.append("|--------|------------|------------------------------------------|\n");
        for (PolicyEntry entry : ENTRIES) {
            String flags = entry.flags().isEmpty() ? "none" : entry.flags().stream()
                .map(read -> "`" + read.flag().name() + "` (" + read.defaultValue() + ")").collect(Collectors.joining(", "));
            table.append("| `").append(entry.name()).append("` | ").append(entry.summary().replace("|", "\\|"))
                .append(" | ").append(flags.replace("|", "\\|")).append(" |\n");
        }
        return table.toString();
    }

    /** Runs every rule across the policy flags. */
    public static void check(RuleContext context, List<FlagProblem> problems) {
        for (FlagRule rule : RULES) {
            rule.check(context, problems);
        }
    }

    /**
     * Policy flags given as text ({@code pagecache.clock.max_usage -> 7}), parsed by the flags
     * themselves, as the page cache's configuration parses them: for the simulator and the tools,
     * which take a policy's flags without a whole page cache configuration.
     *
     * @throws FlagValueException naming every unknown flag (with the nearest name) and every bad value
     */
    public static FlagValues parse(Map<String, String> values) {
        Map<Flag, Object> parsed = new LinkedHashMap<>();
        Map<Flag, String> texts = new LinkedHashMap<>();
        List<FlagProblem> problems = new ArrayList<>();
        values.forEach((name, text) -> {
            if (name == null) { // as the page cache's configuration says it, not an NPE from the catalog's lookup
                problems.add(new FlagProblem("null", text, "a flag without a name (null key)"));
                return;
            }
            Optional<Flag> flag = FLAGS.byName(name);
            if (flag.isEmpty()) {
                problems.add(new FlagProblem(name, text, name + "=" + text + ": not a policy flag"
                    + FLAGS.closest(name).map(f -> "; did you mean '" + f.name() + "'?").orElse("; policy flags are "
                        + FLAGS.all().stream().map(Flag::name).collect(Collectors.joining(", ")))));
                return;
            }
            try {
                parsed.put(flag.get(), flag.get().parse(text));
                texts.put(flag.get(), text == null ? null : text.strip());
            } catch (FlagValueException e) {
                problems.addAll(e.problems());
            }
        });
        if (!problems.isEmpty()) {
            throw new FlagValueException(problems);
        }
        return new FlagValues() {
            @Override
            public Object given(Flag flag) {
                return parsed.get(flag);
            }

            @Override
            public String text(Flag flag) {
                return texts.get(flag);
            }

            @Override
            public String toString() {
                return texts.toString();
            }
        };
    }
}
