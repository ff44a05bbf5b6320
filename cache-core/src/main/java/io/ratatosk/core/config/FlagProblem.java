package io.ratatosk.core.config;

import java.io.Serializable;
import java.util.Objects;

/**
 * One thing wrong with the flags given: the flag concerned (as the user spelt it; for a command-line
 * argument that names no flag, the argument itself), the value as given ({@code null} when there is
 * none), and one line that names both and says what is accepted. Serializable, as the exception that
 * carries it is.
 */
public record FlagProblem(String flag, String value, String message) implements Serializable {
    /** The message is {@link #oneLine}: a line break in a value the user gave does not split it. */
    public FlagProblem {
        Objects.requireNonNull(flag, "flag");
        message = oneLine(Objects.requireNonNull(message, "message"));
    }

    /**
     * {@code text} with every control character and line separator written as an escape ({@code \n}, {@code \r},
     * {@code \t}, else a Unicode escape of four hex digits): a problem's message echoes the name and value as given, and is one line of a
     * message of one line per problem.
     */
    public static String oneLine(String text) {
        StringBuilder line = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean escape = Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
            if (escape && line == null) {
                line = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (line != null) {
                if (!escape) {
                    line.append(c);
                } else if (c == '\n') {
                    line.append("\\n");
                } else if (c == '\r') {
                    line.append("\\r");
                } else if (c == '\t') {
                    line.append("\\t");
                } else {
                    line.append(String.format("\\u%04x", (int) c));
                }
            }
        }
        return line == null ? text : line.toString();
    }
}
