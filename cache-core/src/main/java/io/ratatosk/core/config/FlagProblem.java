package io.ratatosk.core.config;

import java.util.Objects;

/**
 * One thing wrong with the flags given: the flag concerned (as the user spelt it; for a command-line
 * argument that names no flag, the argument itself), the value as given ({@code null} when there is
 * none), and one line that names both and says what is accepted.
 */
public record FlagProblem(String flag, String value, String message) {
    public FlagProblem {
        Objects.requireNonNull(flag, "flag");
        Objects.requireNonNull(message, "message");
    }
}
