package io.ratatosk.core.config;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One startup flag: its dotted lower-case name, the kind of value it takes, its default, what it
 * accepts and a one-line description. A flag parses and normalises its own value and checks the
 * bounds that need no other flag; rules across flags are {@link FlagRule}s declared beside the flags.
 *
 * <p>The same {@link #accepted()} phrase appears in the documentation table and in the error
 * message for a bad value ({@code pagecache.clock.max_usage=9: must be an integer in [1, 7]}), so
 * the two cannot say different things. Immutable; create flags with the static factories and
 * declare them as constants beside the code that reads them.
 */
public final class Flag {
    /** Sizes: a whole or decimal number, optional unit k/m/g/t, optional i, optional b; case-insensitive. */
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)[ \\t]*(?:([kmgt])i?)?b?", Pattern.CASE_INSENSITIVE);
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    /** The word an {@link #integerOrUnlimited} flag accepts for "no limit"; it parses as 0. */
    private static final String UNLIMITED = "unlimited";
    private static final String UNITS = "kmgt";
    /** More whole digits than any flag's bound has: see {@link #reduced}. */
    private static final int MAX_WHOLE_DIGITS = 40;
    /**
     * More fraction digits than tell any two doubles or any two bounds apart (a double's exact decimal has at most 1074
     * after the point, and decides its rounding within 767 significant digits): see {@link #reduced}.
     */
    private static final int MAX_FRACTION_DIGITS = 1100;
    /**
     * Why a whole number past an int is refused: an integer flag without a bound of its own ("an integer >= 1") does not
     * say it, nor does a frame count, whose bound (the frame count) the rules check only once the value is an int.
     */
    private static final String PAST_INT = "at most " + Integer.MAX_VALUE;
    private static final String SIZE_FORMS = "a byte count or a number with unit k, m, g or t, like 8192, 8k, 512MB or 1GiB";
    /** Durations: a whole or decimal number, optional unit ns/us/ms/s (none means ns); case-insensitive. */
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)[ \\t]*(ns|us|ms|s)?", Pattern.CASE_INSENSITIVE);
    private static final String[] DURATION_UNITS = {"s", "ms", "us", "ns"};
    private static final long[] DURATION_NANOS = {1_000_000_000L, 1_000_000L, 1_000L, 1L};
    private static final String DURATION_FORMS = "nanoseconds, or a number with unit ns, us, ms or s, like 150, 50us or 1.5ms";

    private final String name;
    private final FlagKind kind;
    private final String defaultValue;
    private final Object parsedDefault;
    private final String defaultText;
    private final String accepted;
    private final String description;
    private final long min;
    private final long max;
    private final double minDouble;
    private final double maxDouble;
    private final boolean powerOfTwo;
    private final List<String> choices;

    private Flag(String name, FlagKind kind, String defaultValue, String defaultText, String accepted, String description,
                 long min, long max, double minDouble, double maxDouble, boolean powerOfTwo, List<String> choices) {
        this.name = checkName(name);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.defaultValue = defaultValue;
        this.defaultText = defaultText != null ? defaultText : "none";
        this.accepted = Objects.requireNonNull(accepted, "accepted");
        this.description = Objects.requireNonNull(description, "description");
        this.min = min;
        this.max = max;
        this.minDouble = minDouble;
        this.maxDouble = maxDouble;
        this.powerOfTwo = powerOfTwo;
        this.choices = List.copyOf(choices);
        // A default that its own flag refuses is a bug in its declaration: fail when the class loads, not at a user's startup.
        this.parsedDefault = defaultValue == null ? null : parse(defaultValue);
    }

    // ---------------------------------------------------------------- factories

    /** A byte count in [{@code min}, {@code max}] bytes, written with or without a unit. */
    public static Flag size(String name, String defaultValue, long min, long max, String description) {
        String accepted = "a size in [" + formatSize(min) + ", " + formatSize(max) + "]";
        return new Flag(name, FlagKind.SIZE, defaultValue, defaultValue, accepted, description, min, max, 0, 0, false, List.of());
    }

    /** A byte count that is a power of two in [{@code min}, {@code max}] bytes. */
    public static Flag powerOfTwoSize(String name, String defaultValue, long min, long max, String description) {
        String accepted = "a power-of-two size in [" + formatSize(min) + ", " + formatSize(max) + "]";
        return new Flag(name, FlagKind.SIZE, defaultValue, defaultValue, accepted, description, min, max, 0, 0, true, List.of());
    }

    /** A whole number in [{@code min}, {@code max}]; {@code max = Integer.MAX_VALUE} means no upper bound. */
    public static Flag integer(String name, String defaultValue, int min, int max, String description) {
        String accepted = max == Integer.MAX_VALUE ? "an integer >= " + min : "an integer in [" + min + ", " + max + "]";
        return new Flag(name, FlagKind.INT, defaultValue, defaultValue, accepted, description, min, max, 0, 0, false, List.of());
    }

    /**
     * A limit: a whole number in [0, {@code max}], or {@code unlimited}; 0 and {@code unlimited} both mean
     * no limit and parse as 0.
     */
    public static Flag integerOrUnlimited(String name, String defaultValue, int max, String description) {
        String accepted = (max == Integer.MAX_VALUE ? "an integer >= 0" : "an integer in [0, " + max + "]")
            + ", or unlimited (0 also means unlimited)";
        return new Flag(name, FlagKind.INT, defaultValue, defaultValue, accepted, description, 0, max, 0, 0, false,
            List.of(UNLIMITED));
    }

    /** A name of letters, digits, {@code .}, {@code _} and {@code -} (1 to 64), such as a cache's name. */
    public static Flag identifier(String name, String defaultValue, String description) {
        String accepted = "1 to 64 letters, digits, '.', '_' or '-'";
        return new Flag(name, FlagKind.IDENTIFIER, defaultValue, defaultValue, accepted, description, 0, 0, 0, 0, false, List.of());
    }

    /** A whole number that is a power of two in [{@code min}, {@code max}]. */
    public static Flag powerOfTwoInteger(String name, String defaultValue, int min, int max, String description) {
        String accepted = "a power of two in [" + min + ", " + max + "]";
        return new Flag(name, FlagKind.INT, defaultValue, defaultValue, accepted, description, min, max, 0, 0, true, List.of());
    }

    /** A decimal number in [{@code min}, {@code max}]. */
    public static Flag decimal(String name, String defaultValue, double min, double max, String description) {
        String accepted = "a number in [" + formatDouble(min) + ", " + formatDouble(max) + "]";
        return new Flag(name, FlagKind.DOUBLE, defaultValue, defaultValue, accepted, description, 0, 0, min, max, false, List.of());
    }

    /** A duration in [{@code minNanos}, {@code maxNanos}] nanoseconds, written with or without a unit. */
    public static Flag duration(String name, String defaultValue, long minNanos, long maxNanos, String description) {
        String accepted = "a duration in [" + formatDuration(minNanos) + ", " + formatDuration(maxNanos) + "]";
        return new Flag(name, FlagKind.DURATION, defaultValue, defaultValue, accepted, description, minNanos, maxNanos, 0, 0, false, List.of());
    }

    /** {@code true} or {@code false}, case-insensitive. */
    public static Flag bool(String name, String defaultValue, String description) {
        return new Flag(name, FlagKind.BOOLEAN, defaultValue, defaultValue, "true or false", description, 0, 0, 0, 0, false, List.of());
    }

    /** One of {@code choices} (lower-case; matched case-insensitively). */
    public static Flag choice(String name, String defaultValue, List<String> choices, String description) {
        if (choices.isEmpty()) {
            throw new IllegalArgumentException(name + ": a choice flag needs at least one choice");
        }
        for (String choice : choices) {
            if (!choice.equals(choice.toLowerCase(Locale.ROOT)) || choice.isBlank()) {
                throw new IllegalArgumentException(name + ": choices must be lower-case and not blank: '" + choice + "'");
            }
        }
        String accepted = "one of " + String.join(", ", choices);
        return new Flag(name, FlagKind.CHOICE, defaultValue, defaultValue, accepted, description, 0, 0, 0, 0, false, choices);
    }

    /** A fraction of the frames in (0, 1], written with a decimal point, or a frame count >= 1. */
    public static Flag frameShare(String name, String defaultValue, String description) {
        String accepted = "a fraction of the frames in (0, 1] like 0.1, or a frame count >= 1";
        return new Flag(name, FlagKind.FRACTION_OR_COUNT, defaultValue, defaultValue, accepted, description,
                1, Integer.MAX_VALUE, 0, 1, false, List.of());
    }

    // ---------------------------------------------------------------- modifiers (copies)

    /**
     * This flag with another phrase for what it accepts, for a flag whose real bounds involve
     * other flags ({@code "an integer in [0, pagecache.clock.max_usage]"}). The flag's own bounds
     * still apply; a {@link FlagRule} checks the rule across flags.
     */
    public Flag accepting(String phrase) {
        return new Flag(name, kind, defaultValue, defaultText, phrase, description, min, max, minDouble, maxDouble, powerOfTwo, choices);
    }

    /**
     * This flag without a fixed default: its value when unset is computed (from the frame count,
     * say) or chosen by the policy that reads it. {@code text} says how, for the documentation.
     */
    public Flag derivedDefault(String text) {
        return new Flag(name, kind, null, text, accepted, description, min, max, minDouble, maxDouble, powerOfTwo, choices);
    }

    // ---------------------------------------------------------------- accessors

    public String name() {
        return name;
    }

    public FlagKind kind() {
        return kind;
    }

    /**
     * The default as text, or {@code null} when there is no fixed default: a factory given a
     * {@code null} default, or {@link #derivedDefault}. See {@link #defaultText()}.
     */
    public String defaultValue() {
        return defaultValue;
    }

    public boolean hasFixedDefault() {
        return defaultValue != null;
    }

    /** The default parsed like a user's value, or {@code null} when the default is derived. */
    public Object parsedDefault() {
        return parsedDefault;
    }

    /** The default as documented: the value, the rule that computes it, or {@code none}. */
    public String defaultText() {
        return defaultText;
    }

    /** What the flag accepts, as a phrase that follows "must be": {@code an integer in [1, 7]}. */
    public String accepted() {
        return accepted;
    }

    public String description() {
        return description;
    }

    /**
     * The valid names of a {@link FlagKind#CHOICE} flag; for an {@link #integerOrUnlimited} flag, the word
     * that means 0 ({@code unlimited}); empty for other kinds.
     */
    public List<String> choices() {
        return choices;
    }

    /** The last dotted segment of the name: {@code max_usage} for {@code pagecache.clock.max_usage}. */
    public String shortName() {
        return name.substring(name.lastIndexOf('.') + 1);
    }

    @Override
    public String toString() {
        return name;
    }

    // ---------------------------------------------------------------- parsing

    /**
     * Parses {@code text} (surrounding white space ignored) into this flag's value type (see
     * {@link FlagKind}) and checks this flag's own bounds.
     *
     * @throws FlagValueException naming this flag and {@code text}, saying what is accepted
     */
    public Object parse(String text) {
        if (text == null) {
            throw invalid(null, "no value");
        }
        String value = text.strip();
        if (value.isEmpty()) {
            throw invalid(text, "empty");
        }
        return switch (kind) {
            case SIZE -> parseSize(text, value);
            case DURATION -> parseDuration(text, value);
            case INT -> parseInt(text, value);
            case DOUBLE -> parseDouble(text, value);
            case BOOLEAN -> parseBoolean(text, value);
            case CHOICE -> parseChoice(text, value);
            case FRACTION_OR_COUNT -> parseFrameShare(text, value);
            case IDENTIFIER -> parseIdentifier(text, value);
        };
    }

    /** The normalised text of a value this flag parsed: {@code 512m} for 536870912 bytes, {@code true}, {@code muninn}. */
    public String format(Object value) {
        return switch (kind) {
            case SIZE -> formatSize((Long) value);
            case DURATION -> formatDuration((Long) value);
            case DOUBLE -> formatDouble((Double) value);
            case INT -> !choices.isEmpty() && (Integer) value == 0 ? choices.get(0) : value.toString();
            default -> value.toString();
        };
    }

    private Long parseSize(String text, String value) {
        boolean negative = value.startsWith("-");
        Matcher m = SIZE.matcher(negative ? value.substring(1).strip() : value);
        if (!m.matches()) {
            throw invalid(text, "not a size: use " + SIZE_FORMS);
        }
        if (negative) {
            throw invalid(text, "negative");
        }
        BigDecimal bytes = new BigDecimal(reduced(m.group(1)));
        if (m.group(2) != null) {
            int power = UNITS.indexOf(Character.toLowerCase(m.group(2).charAt(0))) + 1;
            bytes = bytes.multiply(BigDecimal.valueOf(1L << (10 * power)));
        }
        if (bytes.stripTrailingZeros().scale() > 0) {
            throw invalid(text, "not a whole number of bytes");
        }
        BigInteger whole = bytes.toBigIntegerExact();
        if (whole.compareTo(BigInteger.valueOf(min)) < 0 || whole.compareTo(BigInteger.valueOf(max)) > 0) {
            throw invalid(text, null);
        }
        long v = whole.longValueExact();
        if (powerOfTwo && Long.bitCount(v) != 1) {
            throw invalid(text, null);
        }
        return v;
    }

    private Long parseDuration(String text, String value) {
        boolean negative = value.startsWith("-");
        Matcher m = DURATION.matcher(negative ? value.substring(1).strip() : value);
        if (!m.matches()) {
            throw invalid(text, "not a duration: use " + DURATION_FORMS);
        }
        if (negative) {
            throw invalid(text, "negative");
        }
        BigDecimal nanos = new BigDecimal(reduced(m.group(1)));
        if (m.group(2) != null) {
            String unit = m.group(2).toLowerCase(Locale.ROOT);
            for (int i = 0; i < DURATION_UNITS.length; i++) {
                if (DURATION_UNITS[i].equals(unit)) {
                    nanos = nanos.multiply(BigDecimal.valueOf(DURATION_NANOS[i]));
                }
            }
        }
        if (nanos.stripTrailingZeros().scale() > 0) {
            throw invalid(text, "not a whole number of nanoseconds");
        }
        BigInteger whole = nanos.toBigIntegerExact();
        if (whole.compareTo(BigInteger.valueOf(min)) < 0 || whole.compareTo(BigInteger.valueOf(max)) > 0) {
            throw invalid(text, null);
        }
        return whole.longValueExact();
    }

    private Integer parseInt(String text, String value) {
        if (!choices.isEmpty() && choices.contains(value.toLowerCase(Locale.ROOT))) {
            return 0; // an integerOrUnlimited flag's "unlimited"
        }
        if (!INTEGER.matcher(value).matches()) {
            throw invalid(text, "not an integer");
        }
        BigInteger v = new BigInteger(reducedSigned(value));
        if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
            throw invalid(text, max == Integer.MAX_VALUE && v.compareTo(BigInteger.valueOf(max)) > 0 ? PAST_INT : null);
        }
        int i = v.intValueExact();
        if (powerOfTwo && Integer.bitCount(i) != 1) {
            throw invalid(text, null);
        }
        return i;
    }

    private String parseIdentifier(String text, String value) {
        if (!IDENTIFIER.matcher(value).matches()) {
            throw invalid(text, null);
        }
        return value;
    }

    private Double parseDouble(String text, String value) {
        if (!DECIMAL.matcher(value).matches()) {
            throw invalid(text, "not a decimal number");
        }
        BigDecimal v = new BigDecimal(reducedSigned(value));
        if (v.compareTo(BigDecimal.valueOf(minDouble)) < 0 || v.compareTo(BigDecimal.valueOf(maxDouble)) > 0) {
            throw invalid(text, null);
        }
        return v.doubleValue();
    }

    private Boolean parseBoolean(String text, String value) {
        if (value.equalsIgnoreCase("true")) {
            return Boolean.TRUE;
        }
        if (value.equalsIgnoreCase("false")) {
            return Boolean.FALSE;
        }
        throw invalid(text, null);
    }

    private String parseChoice(String text, String value) {
        String lower = value.toLowerCase(Locale.ROOT);
        for (String choice : choices) {
            if (choice.equals(lower)) {
                return choice;
            }
        }
        // A typo (munin, clockpro, s3fifo): say which choice it was likely meant as.
        throw invalid(text, Spelling.closest(lower, choices).map(c -> "did you mean '" + c + "'?").orElse(null));
    }

    private FrameShare parseFrameShare(String text, String value) {
        if (value.indexOf('.') >= 0) {
            if (!DECIMAL.matcher(value).matches()) {
                throw invalid(text, "not a number");
            }
            BigDecimal v = new BigDecimal(reducedSigned(value));
            if (v.signum() <= 0 || v.compareTo(BigDecimal.ONE) > 0) {
                // 100.0 (a Double in a map reads so) meant as a count: say why it is none, and how to write one.
                boolean wholeCount = v.signum() > 0 && v.stripTrailingZeros().scale() <= 0
                    && v.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0;
                throw invalid(text, wholeCount ? "a number with a decimal point is a fraction; write a frame count without"
                    + " one, like " + v.toBigIntegerExact() : null);
            }
            // A fraction below the smallest double still means the least share: one frame, as
            // does any fraction under half a frame. Clamped, so that it does not round to 0.
            return FrameShare.ofFraction(Math.max(v.doubleValue(), Double.MIN_VALUE));
        }
        if (!INTEGER.matcher(value).matches()) {
            throw invalid(text, "not a number");
        }
        BigInteger v = new BigInteger(reducedSigned(value));
        if (v.signum() <= 0 || v.compareTo(BigInteger.valueOf(Integer.MAX_VALUE)) > 0) {
            throw invalid(text, v.signum() > 0 ? PAST_INT : null);
        }
        return FrameShare.ofCount(v.intValue());
    }

    /** {@link #reduced} of a number that may carry a sign ({@link #INTEGER}, {@link #DECIMAL}). */
    private static String reducedSigned(String number) {
        boolean signed = number.startsWith("+") || number.startsWith("-");
        return signed ? number.charAt(0) + reduced(number.substring(1)) : reduced(number);
    }

    /**
     * Unsigned decimal digits ({@code 12}, {@code 0.5}, {@code .5}, {@code 5.}) cut to a length that BigDecimal and
     * BigInteger handle at once but that judges the value as the whole text would: their parsing, and
     * {@code stripTrailingZeros}, are quadratic in the digits, and a value of a few hundred thousand digits took
     * minutes to refuse. Leading zeros of the whole part and trailing zeros of the fraction go, as they change nothing.
     * A whole part of more than {@link #MAX_WHOLE_DIGITS} digits is past every flag's bound, and reads as the first
     * number of that many plus one digits, which is too. A fraction of more than {@link #MAX_FRACTION_DIGITS} digits
     * keeps that many and then a 1 for the rest, which are not all zeros: above every bound it was not above before
     * the cut, never a whole number of bytes or nanoseconds (those need at most 40 digits), and the same double.
     */
    private static String reduced(String digits) {
        int point = digits.indexOf('.');
        String whole = point < 0 ? digits : digits.substring(0, point);
        String fraction = point < 0 ? "" : digits.substring(point + 1);
        int firstSignificant = 0;
        while (firstSignificant < whole.length() - 1 && whole.charAt(firstSignificant) == '0') {
            firstSignificant++;
        }
        whole = whole.isEmpty() ? "0" : whole.substring(firstSignificant);
        if (whole.length() > MAX_WHOLE_DIGITS) {
            whole = "1" + "0".repeat(MAX_WHOLE_DIGITS);
        }
        int end = fraction.length();
        while (end > 0 && fraction.charAt(end - 1) == '0') {
            end--;
        }
        fraction = end > MAX_FRACTION_DIGITS ? fraction.substring(0, MAX_FRACTION_DIGITS) + "1" : fraction.substring(0, end);
        return fraction.isEmpty() ? whole : whole + "." + fraction;
    }

    private FlagValueException invalid(String text, String reason) {
        String message = name + "=" + (text == null ? "" : text) + ": must be " + accepted + (reason == null ? "" : " (" + reason + ")");
        return new FlagValueException(new FlagProblem(name, text, message));
    }

    // ---------------------------------------------------------------- formatting

    /** {@code bytes} with the largest binary unit that divides it exactly: {@code 512m}, {@code 8k}, {@code 1536}. */
    public static String formatSize(long bytes) {
        if (bytes != 0) {
            for (int power = UNITS.length(); power >= 1; power--) {
                long unit = 1L << (10 * power);
                if (bytes % unit == 0) {
                    return (bytes / unit) + String.valueOf(UNITS.charAt(power - 1));
                }
            }
        }
        return Long.toString(bytes);
    }

    /** {@code nanos} with the largest unit that divides it exactly: {@code 50us}, {@code 2ms}, {@code 150ns}, {@code 0ns}. */
    public static String formatDuration(long nanos) {
        for (int i = 0; i < DURATION_UNITS.length; i++) {
            if (nanos != 0 && nanos % DURATION_NANOS[i] == 0) {
                return (nanos / DURATION_NANOS[i]) + DURATION_UNITS[i];
            }
        }
        return nanos + "ns";
    }

    /** A decimal with at least one digit after the point and no trailing zeros beyond it: {@code 2.0}, {@code 0.25}. */
    static String formatDouble(double value) {
        String text = BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
        return text.indexOf('.') >= 0 ? text : text + ".0";
    }

    private static String checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-z][a-z0-9_-]*(\\.[a-z][a-z0-9_-]*)+")) {
            throw new IllegalArgumentException("a flag name is dotted lower-case words, like pagecache.clock.max_usage: '" + name + "'");
        }
        return name;
    }
}
