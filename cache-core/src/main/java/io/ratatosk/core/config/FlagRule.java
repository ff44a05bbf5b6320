package io.ratatosk.core.config;

import java.util.List;

/**
 * A rule across flags (a policy's cold bounds against each other, the NVM slots against the page
 * size): it looks at the values of one parse and adds a {@link FlagProblem} for each thing that cannot
 * work. Declared next to the flags it governs, run by every parser of those flags, so that the page
 * cache's configuration and the simulator refuse exactly the same things, with the same words.
 */
@FunctionalInterface
public interface FlagRule {
    void check(RuleContext context, List<FlagProblem> problems);
}
