package io.ratatosk.bench;

import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * The reading of every decimal option of the commands (seconds, skew, shares, warm-up): a decimal number as written in
 * a sentence (3, 0.5, .5, 1e-3), or NaN and Infinity, which the commands' own range checks refuse by name. picocli's
 * default, Double.valueOf, also read Java's literal suffixes and hex floats: demo --seconds 3f ran three seconds and
 * nvm --dram 0x1p-3 an eighth, a typo run without a word.
 */
public final class DecimalOption implements CommandLine.ITypeConverter<Double> {
    private static final Pattern DECIMAL = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?"
        + "|NaN|[+-]?Infinity");

    /** Whether {@code text} (surrounding blanks aside) is a decimal number as this option reads one. */
    public static boolean isDecimal(String text) {
        return DECIMAL.matcher(text.strip()).matches();
    }

    @Override
    public Double convert(String value) {
        if (!isDecimal(value)) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a decimal number (like 3, 0.5 or 1e-3)");
        }
        return Double.valueOf(value.strip());
    }
}
