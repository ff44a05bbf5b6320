package io.ratatosk.core.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Flags were refused: a value a flag cannot take, or values that break a rule across flags. The
 * message holds one line per {@link FlagProblem}. The page cache reports these as its
 * {@code InvalidConfigurationException}; the simulator and the tools as they are.
 */
public class FlagValueException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Serialized with the exception: it was transient, so an exception that crossed a serialization boundary (RMI, a
     * remote JMX call, a test runner's fork) said its problems in its message and gave {@code problems()} as null.
     */
    private final List<FlagProblem> problems;

    public FlagValueException(FlagProblem problem) {
        this(List.of(problem));
    }

    /** @param problems at least one */
    public FlagValueException(List<FlagProblem> problems) {
        super(joined(problems));
        this.problems = List.copyOf(problems);
    }

    private static String joined(List<FlagProblem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a FlagValueException needs at least one problem");
        }
        return problems.stream().map(FlagProblem::message).collect(Collectors.joining("\n"));
    }

    /** Every problem found, in the order reported. */
    public List<FlagProblem> problems() {
        return problems;
    }
}
