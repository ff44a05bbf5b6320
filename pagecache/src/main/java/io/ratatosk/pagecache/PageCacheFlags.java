package io.ratatosk.pagecache;

import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagCatalog;
import io.ratatosk.core.config.FlagProblem;
import io.ratatosk.core.config.FlagRule;
import io.ratatosk.pagecache.internal.HostLog;
import io.ratatosk.pagecache.tier.SwapTierProvider;
import io.ratatosk.policies.PolicyRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Every startup flag of the page cache: its own (memory, page size, policy, evictor, swap tier), the
 * policies' (from {@link PolicyRegistry}) and those of every swap tier on the class path (from each
 * {@link SwapTierProvider}), in the order {@code docs/configuration.md} lists them. Regenerate that
 * table with {@code java -cp ... io.ratatosk.pagecache.PageCacheFlags} (a test fails until the doc matches).
 */
public final class PageCacheFlags {
    private static final long MIB = 1L << 20;
    private static final long TIB = 1L << 40;

    /** The {@code pagecache.swap} value that puts no tier between frames and files. */
    public static final String FILE_SWAP = "file";

    /** The tier a user most likely means when none is on the class path, and the artifact it comes with. */
    private static final String NVM_TIER = "nvm";
    private static final String NVM_JAR = "io.ratatosk:storage-nvm";

    public static final Flag MEMORY = Flag.size("pagecache.memory", "512m", 1, TIB,
            "Memory for page frames; the frame count is memory / page_size, rounded down.")
            .accepting("a size in [2 pages of pagecache.page_size, 1t]");

    public static final Flag PAGE_SIZE = Flag.powerOfTwoSize("pagecache.page_size", "8k", 512, MIB,
            "Size of a page, and of the frame that holds it.");

    public static final Flag POLICY = Flag.choice("pagecache.policy", PolicyRegistry.DEFAULT_POLICY, PolicyRegistry.NAMES,
            "Eviction policy.");

    public static final Flag EVICTOR_ENABLED = Flag.bool("pagecache.evictor.enabled", "true",
            "Run the background evictor, which keeps free frames ready; when off, faulting threads evict for themselves.");

    public static final Flag EVICTOR_KEEP_FREE = Flag.integer("pagecache.evictor.keep_free", null, 1, Integer.MAX_VALUE,
            "Free frames the background evictor keeps ready: it refills the pool to this many when it runs (every 10 ms, and at once when a fault finds fewer than half of them free).")
            .accepting("an integer >= 1, less than the frame count")
            .derivedDefault("5% of frames, at least 30 and at most 100000; frames / 2 below 60 frames");

    public static final Flag HUGE_PAGES = Flag.choice("pagecache.huge_pages", "auto", List.of("auto", "off"),
            "Transparent huge pages for the page memory: auto asks Linux for them with madvise on JDK 22+ when the JVM grants native access (--enable-native-access=ALL-UNNAMED), and keeps the ordinary allocation otherwise; stats().hugePages() says which.");

    /** The tiers on the class path, those left out and why: loaded after the flags their flags must not clash with. */
    private static final TierProviders LOADED = TierProviders.load(PageCacheFlags.class.getClassLoader(),
            Stream.of(Stream.of(MEMORY, PAGE_SIZE, POLICY, EVICTOR_ENABLED, EVICTOR_KEEP_FREE, HUGE_PAGES),
                    PolicyRegistry.flags().all().stream(), OperationsFlags.ALL.stream())
                    .flatMap(flags -> flags).map(Flag::name).collect(Collectors.toCollection(() -> new HashSet<>(List.of("pagecache.swap")))));

    /**
     * The swap tiers on the class path, by {@code pagecache.swap} name, in the order their flags are listed. A provider
     * that cannot be loaded or whose name, description, flags or rules are unusable is left out of it (see
     * {@link #REFUSED_TIERS}): one broken jar must not make the page cache unusable with {@code pagecache.swap=file}.
     */
    public static final List<SwapTierProvider> TIERS = LOADED.tiers();

    /** The tier providers on the class path that were left out, each with the provider's class and why; usually empty. */
    public static final List<String> REFUSED_TIERS = LOADED.refused();

    public static final Flag SWAP = swapFlag();

    /** Every flag: the page cache's, the policies', the tiers'. */
    public static final FlagCatalog ALL = new FlagCatalog(List.of(MEMORY, PAGE_SIZE, POLICY), PolicyRegistry.flags().all(),
            List.of(EVICTOR_ENABLED, EVICTOR_KEEP_FREE, SWAP, HUGE_PAGES), OperationsFlags.ALL, tierFlags());

    /** The rules across flags of the policies and the tiers. */
    public static final List<FlagRule> RULES = rules();

    private PageCacheFlags() {
    }

    private static Flag swapFlag() {
        Flag swap = Flag.choice("pagecache.swap", FILE_SWAP,
                Stream.concat(Stream.of(FILE_SWAP), LOADED.loaded.stream().map(TierProviders.Loaded::name)).toList(),
                "Where evicted pages go: " + Stream.concat(Stream.of("file writes them back to their files"),
                        LOADED.loaded.stream().map(tier -> tier.name() + " " + tier.description())).collect(Collectors.joining(", ")) + ".");
        if (!REFUSED_TIERS.isEmpty()) {
            // Whoever asks for a tier that was left out learns why from the parser's own message.
            return swap.accepting(swap.accepted() + leftOut());
        }
        // Without a tier on the class path, say where the one a user most likely meant comes from.
        return TIERS.isEmpty() ? swap.accepting("one of file (" + NVM_TIER + " comes with " + NVM_JAR + " on the class path)") : swap;
    }

    /**
     * Why {@code name} is no flag, where it is one of the NVM tier's and that tier is not loaded: where the tier comes
     * from. Else empty. (The nearest valid name is no help there: it suggested pagecache.history.capacity for
     * pagecache.nvm.capacity.)
     */
    static Optional<String> missingTier(String name) {
        if (!name.startsWith("pagecache." + NVM_TIER + ".") || LOADED.byName(NVM_TIER).isPresent()) {
            return Optional.empty();
        }
        return Optional.of("the pagecache." + NVM_TIER + ".* flags come with the NVM tier (pagecache.swap=" + NVM_TIER + "), "
            + NVM_JAR + ", which is not on the class path" + (REFUSED_TIERS.isEmpty() ? "" : leftOut()));
    }

    private static List<Flag> tierFlags() {
        List<Flag> flags = new ArrayList<>();
        LOADED.loaded.forEach(tier -> flags.addAll(tier.flags()));
        return flags;
    }

    private static List<FlagRule> rules() {
        List<FlagRule> rules = new ArrayList<>(PolicyRegistry.RULES);
        LOADED.loaded.forEach(tier -> tier.rules().forEach(rule -> rules.add(guarded(tier, rule))));
        return List.copyOf(rules);
    }

    /**
     * A tier's rule as every parse runs it: what it throws refuses the configurations that choose the tier, naming its
     * provider, and no other (a tier's rules run on every parse, and one that threw failed them all, pagecache.swap=file
     * too, and PageCacheConfig's own initializer with them).
     */
    private static FlagRule guarded(TierProviders.Loaded tier, FlagRule rule) {
        String name = tier.name();
        return (context, problems) -> {
            List<FlagProblem> found = new ArrayList<>();
            try {
                rule.check(context, found);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable e) {
                // Throwable, not RuntimeException | Error: a checked exception thrown undeclared (a sneaky throw) got
                // past, failing every parse and PageCacheConfig's own initializer. In words that cannot throw in turn.
                if (name.equals(context.values().given(SWAP))) {
                    problems.add(new FlagProblem(SWAP.name(), name, "the rules of the tier provider "
                        + tier.provider().getClass().getName() + " cannot check this configuration: one threw "
                        + HostLog.inWords(e)));
                }
                return;
            }
            problems.addAll(found);
        };
    }

    /** The tier {@code pagecache.swap=name} selects. */
    static SwapTierProvider tier(String name) {
        return LOADED.byName(name).orElseThrow(() -> new IllegalArgumentException("pagecache.swap=" + name
                + ": no such tier on the class path" + (REFUSED_TIERS.isEmpty() ? "" : leftOut())));
    }

    /** The providers left out and why, for an error that may be about one of them. */
    private static String leftOut() {
        return " (tier providers left out: " + String.join("; ", REFUSED_TIERS) + ")";
    }

    /**
     * The {@link SwapTierProvider}s a class loader finds, each asked once for its name, description, flags and rules,
     * and checked: a provider is code from another jar, and what it throws or returns here must not fail the page
     * cache's flags (a failed static initializer leaves this class unusable for the life of the JVM). A provider that
     * cannot be instantiated, throws, returns null, a name that is not lower case ({@code [a-z0-9_-]}), {@code file},
     * or another tier's name, or a flag whose name another flag has, is left out, with the reason in {@link #refused},
     * and a warning is logged.
     */
    static final class TierProviders {
        private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]*");
        private static final int MAX_LOAD_ERRORS = 64;

        record Loaded(SwapTierProvider provider, String name, String description, List<Flag> flags, List<FlagRule> rules) {
        }

        private final List<Loaded> loaded;
        private final List<String> refused;

        private TierProviders(List<Loaded> loaded, List<String> refused) {
            this.loaded = List.copyOf(loaded);
            this.refused = List.copyOf(refused);
        }

        /** @param takenFlagNames the names of every flag that is not a tier's */
        static TierProviders load(ClassLoader classLoader, Set<String> takenFlagNames) {
            List<Loaded> loaded = new ArrayList<>();
            List<String> refused = new ArrayList<>();
            Set<String> flagNames = new HashSet<>(takenFlagNames);
            Map<String, String> tierNames = new HashMap<>();
            Iterator<ServiceLoader.Provider<SwapTierProvider>> providers;
            try {
                providers = ServiceLoader.load(SwapTierProvider.class, classLoader).stream().iterator();
            } catch (Throwable t) {
                refused.add("the provider list could not be read: " + describe(t));
                return done(loaded, refused);
            }
            int errors = 0;
            while (errors < MAX_LOAD_ERRORS) {
                ServiceLoader.Provider<SwapTierProvider> provider;
                try {
                    if (!providers.hasNext()) {
                        break;
                    }
                    provider = providers.next();
                } catch (Throwable t) { // a missing or broken class named in META-INF/services
                    errors++;
                    refused.add(describe(t));
                    continue;
                }
                String className = provider.type().getName();
                try {
                    Loaded tier = check(provider.get(), tierNames, flagNames);
                    for (Flag flag : tier.flags()) {
                        flagNames.add(flag.name());
                    }
                    tierNames.put(tier.name(), className);
                    loaded.add(tier);
                } catch (Throwable t) {
                    refused.add(className + ": " + (t instanceof RefusedTier ? t.getMessage() : "threw " + describe(t)));
                }
            }
            if (errors == MAX_LOAD_ERRORS && entriesLeft(providers)) {
                // Said, not silent: a good provider listed after the broken entries was missing without a word, and
                // choosing it was refused as a tier no provider offers.
                refused.add("gave up reading the provider list after " + MAX_LOAD_ERRORS + " broken entries in it: the"
                    + " providers listed after them were not looked at; mend or remove the broken entries of META-INF/services/"
                    + SwapTierProvider.class.getName());
            }
            loaded.sort(Comparator.comparing(Loaded::name));
            return done(loaded, refused);
        }

        /** Whether the list goes on (a failure to tell counts as yes: it is one more broken entry). */
        private static boolean entriesLeft(Iterator<?> providers) {
            try {
                return providers.hasNext();
            } catch (Throwable t) {
                return true;
            }
        }

        /** The throwable and its causes, in one line: a ServiceConfigurationError's own message hides the provider's. */
        private static String describe(Throwable t) {
            StringBuilder text = new StringBuilder(HostLog.inWords(t));
            Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Throwable cause = causeOf(t); cause != null && seen.add(cause); cause = causeOf(cause)) {
                text.append(", caused by ").append(HostLog.inWords(cause));
            }
            return text.toString();
        }

        /**
         * A provider's throwable as toString says it, or its class where that throws: the provider's code, called here
         * inside PageCacheFlags' initialization, whose failure (once, from a getMessage that threw) made every
         * configuration and page cache of the class loader fail for good.
         */
        private static Throwable causeOf(Throwable t) {
            try {
                return t.getCause();
            } catch (Throwable unreadable) {
                return null;
            }
        }

        private static TierProviders done(List<Loaded> loaded, List<String> refused) {
            for (String reason : refused) {
                // In PageCacheFlags' initialization: a failing log once failed the class for good. The reason stays in
                // REFUSED_TIERS, and choosing the tier is refused naming it.
                HostLog.warn("io.ratatosk.pagecache", "swap tier provider left out (pagecache.swap cannot select it): "
                    + reason);
            }
            return new TierProviders(loaded, refused);
        }

        private static Loaded check(SwapTierProvider tier, Map<String, String> tierNames,
                                    Set<String> flagNames) {
            String name = tier.name();
            if (name == null || !NAME.matcher(name).matches()) {
                throw new RefusedTier("its name() is " + (name == null ? "null" : "'" + name + "'")
                    + ": a pagecache.swap value is lower case, [a-z0-9_-], not blank");
            }
            if (FILE_SWAP.equals(name)) {
                throw new RefusedTier("its name() is 'file', which is pagecache.swap's own choice for no tier");
            }
            if (tierNames.containsKey(name)) {
                throw new RefusedTier("its name() '" + name + "' is the name of the tier of " + tierNames.get(name));
            }
            String description = tier.description();
            if (description == null) {
                throw new RefusedTier("its description() is null");
            }
            List<Flag> flags = tier.flags();
            List<FlagRule> rules = tier.rules();
            if (flags == null || rules == null) {
                throw new RefusedTier("its " + (flags == null ? "flags()" : "rules()") + " is null");
            }
            flags = new ArrayList<>(flags);
            rules = new ArrayList<>(rules);
            Set<String> own = new HashSet<>();
            for (Flag flag : flags) {
                if (flag == null) {
                    throw new RefusedTier("its flags() holds null");
                }
                if (flagNames.contains(flag.name()) || !own.add(flag.name())) {
                    throw new RefusedTier("its flag " + flag.name() + " has the name of another flag");
                }
            }
            if (rules.contains(null)) {
                throw new RefusedTier("its rules() holds null");
            }
            return new Loaded(tier, name, description, List.copyOf(flags), List.copyOf(rules));
        }

        List<SwapTierProvider> tiers() {
            return loaded.stream().map(Loaded::provider).toList();
        }

        List<String> refused() {
            return refused;
        }

        Optional<SwapTierProvider> byName(String name) {
            return loaded.stream().filter(tier -> tier.name().equals(name)).map(Loaded::provider).findFirst();
        }

        /** Why a provider was left out, in words. */
        private static final class RefusedTier extends RuntimeException {
            RefusedTier(String message) {
                super(message, null, false, false);
            }
        }
    }

    /** Prints the flag table, to paste into {@code docs/configuration.md}. */
    public static void main(String[] args) {
        System.out.print(ALL.markdownTable());
    }
}
