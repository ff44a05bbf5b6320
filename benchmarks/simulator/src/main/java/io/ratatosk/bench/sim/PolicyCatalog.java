package io.ratatosk.bench.sim;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.Spelling;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.PolicyRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Every policy the simulator can run, by name: its own reference columns (exact LRU, exact W-TinyLFU, OPT), the peer
 * columns on the class path ({@link PeerColumn}: Caffeine in {@code ./bench}) and whatever the
 * {@link SpiPolicyProvider} knows. Adding a policy to cache-policies adds it here with no change to
 * the simulator.
 */
public final class PolicyCatalog {
    private static final Map<String, Supplier<PolicySimulator>> OWN = ownColumns();

    /** Exact LRU, exact W-TinyLFU, the peers by name, then OPT: the order of the tables' last columns. */
    private static Map<String, Supplier<PolicySimulator>> ownColumns() {
        Map<String, Supplier<PolicySimulator>> own = new LinkedHashMap<>();
        own.put("lru", ExactLruSimulator::new);
        own.put(ExactTinyLfuSimulator.NAME, ExactTinyLfuSimulator::new);
        List<PeerColumn> peers = new ArrayList<>();
        ServiceLoader.load(PeerColumn.class, PolicyCatalog.class.getClassLoader()).forEach(peers::add);
        peers.sort((a, b) -> a.name().compareTo(b.name()));
        for (PeerColumn peer : peers) {
            if (peer.name().equals("opt") || own.putIfAbsent(peer.name(), peer::simulator) != null) {
                throw new IllegalStateException("peer column " + peer.getClass().getName() + " takes the name '"
                    + peer.name() + "', which another column has");
            }
        }
        own.put("opt", OptSimulator::new);
        return own;
    }

    private final SpiPolicyProvider spi;
    private final PolicyFlags flags;

    PolicyCatalog(SpiPolicyProvider spi, PolicyFlags flags) {
        this.spi = spi;
        this.flags = flags;
    }

    /** The page cache's policies from cache-policies, plus the simulator's own columns. */
    public static PolicyCatalog standard() {
        return new PolicyCatalog(new PageCachePolicies(), PolicyFlags.standard());
    }

    /**
     * Reference columns that run only when named: {@code w-tinylfu-exact} measures one policy's approximation, which
     * a run of every policy does not need, and it would add about 5 s to the whole public folder's (see docs/simulator.md).
     */
    private static final Set<String> ONLY_WHEN_NAMED = Set.of(ExactTinyLfuSimulator.NAME);

    /** All names: lru first, then the page cache's policies, then the peers (caffeine) and opt. */
    public List<String> names() {
        Set<String> names = new LinkedHashSet<>();
        names.add("lru");
        names.addAll(spi.names());
        names.addAll(OWN.keySet());
        return new ArrayList<>(names);
    }

    /** The flags {@code policy} reads (what its overrides may set). */
    public List<String> flagsOf(String policy) {
        return OWN.containsKey(policy) ? List.of() : flags.flagsOf(policy);
    }

    /**
     * Parses {@code name[:key=value]...}; an unknown name or flag is refused with the valid ones.
     * {@code default} stands for the page cache's default policy and is reported under its real name.
     */
    public PolicySpec parse(String text) {
        return parse(text, names(), "valid policies");
    }

    /**
     * As {@link #parse}, for a tool that runs the page cache itself (not the simulator): refuses the simulator's own
     * columns ({@code lru}, {@code opt}, {@code caffeine}, ...), and an unknown name, naming the policies the page
     * cache runs.
     */
    public PolicySpec parsePageCachePolicy(String text) {
        PolicySpec spec = parse(text, PolicyRegistry.NAMES, "the page cache runs");
        if (!PolicyRegistry.NAMES.contains(spec.name())) {
            throw new IllegalArgumentException("policy " + spec.name() + " is the simulator's only; the page cache runs: "
                + String.join(", ", PolicyRegistry.NAMES));
        }
        return spec;
    }

    /** {@link #parse}, an unknown name refused with {@code offered} as the policies to choose from. */
    private PolicySpec parse(String text, List<String> offered, String offeredAs) {
        if (namesDefault(text)) {
            try {
                return parse(resolveDefault(text), offered, offeredAs);
            } catch (IllegalArgumentException e) {
                // the message names the policy behind the alias, which the user did not type: say which one that is
                throw new IllegalArgumentException("'" + text.strip() + "' (" + PolicyRegistry.DEFAULT_ALIAS + " is "
                    + PolicyRegistry.DEFAULT_POLICY + "): " + e.getMessage(), e);
            }
        }
        String name = text.strip();
        int colon = name.indexOf(':');
        if (colon >= 0) {
            name = name.substring(0, colon);
        }
        if (!names().contains(name)) {
            throw new IllegalArgumentException("unknown policy '" + name + "'"
                + Spelling.closest(name, offered).map(meant -> " (did you mean '" + meant + "'?)").orElse("")
                + "; " + offeredAs + ": " + String.join(", ", offered) + " (and " + PolicyRegistry.DEFAULT_ALIAS + ", now "
                + PolicyRegistry.DEFAULT_POLICY + ")");
        }
        if (OWN.containsKey(name)) {
            if (colon >= 0) {
                throw new IllegalArgumentException("policy " + name + " takes no flags: '" + text.strip() + "'");
            }
            return new PolicySpec(name, name, Map.of());
        }
        return PolicySpec.parse(text, flags);
    }

    /** {@code text} with a leading {@code default} replaced by the default policy's name, flags kept. */
    public static String resolveDefault(String text) {
        String stripped = text.strip();
        String alias = PolicyRegistry.DEFAULT_ALIAS;
        if (stripped.equals(alias) || stripped.startsWith(alias + ":")) {
            return PolicyRegistry.DEFAULT_POLICY + stripped.substring(alias.length());
        }
        return text;
    }

    /** Whether {@code part} of a policy list names the default policy by its alias. */
    public static boolean namesDefault(String part) {
        return !resolveDefault(part).equals(part);
    }

    /**
     * A comma-separated list of specs, given as {@code option}; null means every policy with default flags (and every
     * reference column but {@code w-tinylfu-exact}, which runs only when named). A
     * {@code default} entry comes first, under the default policy's real name; a repeat is dropped.
     *
     * @throws IllegalArgumentException "{@code option} PART: why" for the first part refused
     */
    public List<PolicySpec> parseList(String option, String commaSeparated) {
        if (commaSeparated == null) {
            List<PolicySpec> every = new ArrayList<>();
            for (String name : names()) {
                if (!ONLY_WHEN_NAMED.contains(name)) {
                    every.add(parse(name));
                }
            }
            return every;
        }
        List<PolicySpec> specs = parseEach(commaSeparated, this::parse, (part, e) -> {
            throw named(option, part, e);
        });
        if (specs.isEmpty()) {
            // a blank list ran every policy, so a script's unset variable started the longest run there is
            throw new IllegalArgumentException(option + " names no policy: '" + commaSeparated + "'; leave it out to run"
                + " every policy");
        }
        return specs;
    }

    /**
     * The policies of a comma-separated list given as {@code option}, for a tool that runs the page cache
     * ({@link #parsePageCachePolicy} each): a {@code default} entry first, under the default policy's real name; blank
     * entries skipped, a repeat dropped. Empty if the list names none: the tool says so in its own words.
     *
     * @throws IllegalArgumentException "{@code option} PART: why" for the first part refused
     */
    public List<PolicySpec> parsePageCacheList(String option, String commaSeparated) {
        return parseEach(commaSeparated, this::parsePageCachePolicy, (part, e) -> {
            throw named(option, part, e);
        });
    }

    /**
     * As {@link #parsePageCacheList(String, String)}, every part refused rather than the first: each refusal is added to
     * {@code wrong} as "{@code option} PART: why", and the parts that parse are returned, so that a tool can say all
     * that is wrong with its flags at once.
     */
    public List<PolicySpec> parsePageCacheList(String option, String commaSeparated, List<String> wrong) {
        return parseEach(commaSeparated, this::parsePageCachePolicy,
            (part, e) -> wrong.add(named(option, part, e).getMessage()));
    }

    /**
     * A part's refusal, said with the option and the part it came from: alone, it named neither ("unknown policy
     * 'lfu'"), or a page cache flag the user never wrote ("pagecache.clock.max_usage=99: ...").
     */
    private static IllegalArgumentException named(String option, String part, IllegalArgumentException e) {
        return new IllegalArgumentException(option + " " + part.strip() + ": " + e.getMessage(), e);
    }

    /**
     * The specs of a list, {@code default} first, blanks skipped, a repeat dropped; each refusal told to
     * {@code refused}, which may throw.
     */
    private static List<PolicySpec> parseEach(String commaSeparated, Function<String, PolicySpec> parser,
                                              BiConsumer<String, IllegalArgumentException> refused) {
        List<PolicySpec> specs = new ArrayList<>();
        Set<List<Object>> seen = new HashSet<>();
        for (String part : defaultFirst(commaSeparated)) {
            if (part.isBlank()) {
                continue;
            }
            PolicySpec spec;
            try {
                spec = parser.apply(part);
            } catch (IllegalArgumentException e) {
                refused.accept(part, e);
                continue;
            }
            if (seen.add(meaning(spec))) {
                specs.add(spec);
            }
        }
        return specs;
    }

    /**
     * What a spec runs, however it is written: its policy and every flag it reads by full name and normalised value,
     * the policy's default where none is given. Repeats were dropped only when written alike, so
     * global-clock:max_usage=4 and global-clock:max_usage=04 (or clock.max_usage=4, or with spaces), and muninn and
     * muninn:max_usage=4 (its default), ran as two columns of one policy, each taking the other's wins.
     */
    public static List<Object> meaning(PolicySpec spec) {
        Map<String, String> flags = new HashMap<>();
        PolicyRegistry.ENTRIES.stream().filter(entry -> entry.name().equals(spec.name())).findFirst().ifPresent(entry ->
            entry.flags().forEach(read -> flags.put(read.flag().name(), defaultValue(read))));
        spec.flags().forEach((flag, value) -> flags.put(flag, PolicyFlags.normalized(flag, value)));
        return List.of(spec.name(), flags);
    }

    /** A policy's default for a flag, normalised; as the docs show it where that is no value (a policy's own choice). */
    private static String defaultValue(PolicyEntry.ReadFlag read) {
        try {
            return PolicyFlags.normalized(read.flag().name(), read.defaultValue());
        } catch (IllegalArgumentException e) {
            return read.defaultValue();
        }
    }

    /** The parts of a comma-separated policy list, the first one naming {@code default} moved to the front. */
    public static List<String> defaultFirst(String commaSeparated) {
        List<String> parts = new ArrayList<>(List.of(commaSeparated.split(",")));
        for (int i = 0; i < parts.size(); i++) {
            if (namesDefault(parts.get(i))) {
                parts.add(0, parts.remove(i));
                break;
            }
        }
        return parts;
    }

    /**
     * Builds {@code spec}'s policy over {@code frames} frames and lets it go, so that flags which hold at some cache
     * sizes and not at others ({@code clock-pro:cold_min=500} in 100 frames) are refused before any replay, not by
     * the replay after the others ran. The simulator's own columns take no flags: nothing to check.
     *
     * @throws IllegalArgumentException ({@code FlagValueException} for a flag) saying what does not hold
     */
    public void check(PolicySpec spec, int frames) {
        if (OWN.containsKey(spec.name())) {
            return;
        }
        try (FrameTable table = new FrameTable(frames)) {
            spi.create(spec.name(), table, spec.flags());
        }
    }

    /** A simulator for one column. */
    public PolicySimulator simulator(PolicySpec spec) {
        Supplier<PolicySimulator> own = OWN.get(spec.name());
        if (own != null) {
            return own.get();
        }
        return new SpiPolicySimulator(spec.text(), frames -> spi.create(spec.name(), frames, spec.flags()));
    }
}
