package io.ratatosk.policies;

import io.ratatosk.core.config.FlagProblem;
import io.ratatosk.core.config.FlagValueException;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.core.config.RuleContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What the page cache's parser does with policy flags, for a cache of a given frame count: parse, then every rule. */
public final class RegistryParse {
    private RegistryParse() {
    }

    /** The values if the parser accepts them for {@code policy} over {@code frames} frames, else null. */
    public static FlagValues acceptedOrNull(Map<String, String> policyFlags, String policy, int frames) {
        FlagValues values;
        try {
            values = PolicyRegistry.parse(policyFlags);
        } catch (FlagValueException refused) {
            return null;
        }
        RuleContext context = RuleContext.forFrames(values, policy, frames, 512);
        List<FlagProblem> problems = new ArrayList<>();
        RuleContext.checkFrameCounts(PolicyRegistry.flags().all(), context, problems);
        PolicyRegistry.check(context, problems);
        return problems.isEmpty() ? values : null;
    }
}
