package io.ratatosk.pagecache;

import io.ratatosk.core.config.FlagProblem;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The page cache configuration was refused at startup. The message holds one line per problem, each
 * naming the flag, the value as given, and what is accepted, for example
 * {@code pagecache.clock.max_usage=9: must be an integer in [1, 7]}. {@link #flag()} and
 * {@link #value()} describe the first problem; {@link #problems()} lists them all.
 */
public class InvalidConfigurationException extends IllegalArgumentException {

    /**
     * One thing wrong with the configuration.
     *
     * @param flag    the flag concerned, as the user spelt it (an unknown name stays unknown); for a
     *                command-line argument that names no flag, the argument itself
     * @param value   the value as given, or {@code null} when there is none
     * @param message one line that names the flag and the value and says what is accepted; a control character or line
     *                separator in it (from a name or value as given) is escaped ({@link FlagProblem#oneLine})
     */
    public record Problem(String flag, String value, String message) implements Serializable {
        public Problem {
            Objects.requireNonNull(flag, "flag");
            message = FlagProblem.oneLine(Objects.requireNonNull(message, "message"));
        }
    }

    private final List<Problem> problems;

    /** A configuration with a single problem; {@code message} names the flag and the value. */
    public InvalidConfigurationException(String flag, String value, String message) {
        this(List.of(new Problem(flag, value, message)));
    }

    /** A configuration with one or more problems, reported together, one per line. */
    public InvalidConfigurationException(List<Problem> problems) {
        super(joined(problems));
        this.problems = List.copyOf(problems);
    }

    private static String joined(List<Problem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("an InvalidConfigurationException needs at least one problem");
        }
        return problems.stream().map(Problem::message).collect(Collectors.joining("\n"));
    }

    /** The flag of the first problem. */
    public String flag() {
        return problems.get(0).flag();
    }

    /** The value of the first problem as given, or {@code null} when there is none. */
    public String value() {
        return problems.get(0).value();
    }

    /** Every problem found, in the order reported. */
    public List<Problem> problems() {
        return problems;
    }
}
