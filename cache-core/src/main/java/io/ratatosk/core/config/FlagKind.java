package io.ratatosk.core.config;

/**
 * What kind of value a {@link Flag} takes, which decides how its text is parsed, which typed
 * accessor reads it ({@link FlagValues}, the page cache's configuration), and the Java type of its
 * parsed value.
 */
public enum FlagKind {
    /** A byte count, plain or with a binary unit: {@code 8192}, {@code 8k}, {@code 512MB}, {@code 1GiB}. Parsed as {@link Long}. */
    SIZE,
    /**
     * A duration, in nanoseconds when plain or with a unit: {@code 150}, {@code 150ns}, {@code 50us},
     * {@code 1.5ms}, {@code 2s}. Parsed as {@link Long} nanoseconds.
     */
    DURATION,
    /** A whole number. Parsed as {@link Integer}. */
    INT,
    /** A decimal number such as {@code 0.5}. Parsed as {@link Double}. */
    DOUBLE,
    /** {@code true} or {@code false}, case-insensitive. Parsed as {@link Boolean}. */
    BOOLEAN,
    /** One name out of a fixed list, case-insensitive. Parsed as the canonical {@link String}. */
    CHOICE,
    /**
     * A share of the frames: a fraction with a decimal point ({@code 0.1}, {@code 1.0}) or a frame
     * count without one ({@code 100}). Parsed as {@link FrameShare}.
     */
    FRACTION_OR_COUNT,
    /**
     * A short name: letters, digits, {@code .}, {@code _} and {@code -}, 1 to 64 of them, so that it can
     * stand in an identifier such as a JMX object name unquoted. Parsed as the {@link String} given.
     */
    IDENTIFIER
}
