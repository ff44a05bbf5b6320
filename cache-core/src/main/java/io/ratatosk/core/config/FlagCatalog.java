package io.ratatosk.core.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An ordered set of flags with unique names: the page cache's whole configuration, or the flags of the
 * policies alone. It finds a flag by name, suggests the nearest name for a misspelt one, and writes the
 * flag table of {@code docs/configuration.md}.
 */
public final class FlagCatalog {
    private static final String PREFIX = "pagecache.";

    private final List<Flag> flags;
    private final Map<String, Flag> byName = new HashMap<>();

    /** @param groups flag lists, concatenated in order; the same flag object twice is kept once, two flags of one name refused */
    @SafeVarargs
    public FlagCatalog(List<Flag>... groups) {
        List<Flag> all = new ArrayList<>();
        for (List<Flag> group : groups) {
            for (Flag flag : group) {
                Flag existing = byName.putIfAbsent(flag.name(), flag);
                if (existing == null) {
                    all.add(flag);
                } else if (existing != flag) {
                    throw new IllegalStateException("two flags named " + flag.name());
                }
            }
        }
        this.flags = List.copyOf(all);
    }

    /** Every flag, in order. */
    public List<Flag> all() {
        return flags;
    }

    /** The flag called exactly {@code name}, if any. */
    public Optional<Flag> byName(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /**
     * The flag whose name is closest to {@code misspelt}, if one is close enough to suggest.
     * Compares case-insensitively by edit distance, over the whole name and over its last dotted
     * segment ({@code pagecache.keep_free} finds {@code pagecache.evictor.keep_free}). When the
     * misspelt name starts with {@code pagecache.}, the whole-name comparison leaves that shared
     * prefix out, so that it does not make every short name look close to every other. A distance
     * counts as close when it is at most a third of the length of what it is compared with; among
     * close flags, the smallest distance relative to that length wins.
     */
    public Optional<Flag> closest(String misspelt) {
        String given = misspelt.toLowerCase(Locale.ROOT).strip();
        boolean prefixed = given.startsWith(PREFIX);
        String givenName = prefixed ? given.substring(PREFIX.length()) : given;
        String givenSegment = given.substring(given.lastIndexOf('.') + 1);
        Flag best = null;
        double bestScore = Double.MAX_VALUE;
        for (Flag flag : flags) {
            String name = prefixed ? flag.name().substring(PREFIX.length()) : flag.name();
            double score = Math.min(Spelling.closeness(givenName, name), Spelling.closeness(givenSegment, flag.shortName()));
            if (score < bestScore) {
                best = flag;
                bestScore = score;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The flag table of {@code docs/configuration.md}: one row per flag with its name, default,
     * accepted values and description. The doc must contain this text verbatim.
     */
    public String markdownTable() {
        StringBuilder table = new StringBuilder();
        table.append("| Flag | Default | Accepted values | Description |\n");
        table.append("|------|---------|-----------------|-------------|\n");
        for (Flag flag : flags) {
            String defaultCell = flag.hasFixedDefault() ? "`" + flag.defaultValue() + "`" : flag.defaultText();
            table.append("| `").append(flag.name()).append("` | ")
                    .append(cell(defaultCell)).append(" | ")
                    .append(cell(flag.accepted())).append(" | ")
                    .append(cell(flag.description())).append(" |\n");
        }
        return table.toString();
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

}
